/// The scenarios of issue 5: how rows are laid out and what happens while the window runs.
public enum Scenario: Int, CaseIterable, Codable, Sendable {
  /// N bound countdowns 10–50 min from their end, random sub-second phases, whole seconds.
  case steady = 1
  /// N countdowns 1–2 h from their end (event times on whole minutes), adaptive display: minutes.
  case idle = 2
  /// N registered rows, 50 cells bound, scrolling a page (rebinding the 50 cells) 10 times a second.
  case list = 3
  /// Add N, cancel a random half, add it again, rebind cells 10,000 times; then a steady window.
  case churn = 4
  /// N countdowns that all change at the same instant each second while two threads add and cancel.
  case herd = 5

  /// One line for table headings.
  public var title: String {
    switch self {
    case .steady: "steady state: N bound countdowns under an hour, random sub-second phases, seconds display"
    case .idle: "mostly idle: N countdowns 1–2 h away, ends on whole minutes, adaptive display (minutes)"
    case .list: "a list: N registered rows, 50 cells bound, scrolling a page (50 rebinds) 10 times a second"
    case .churn: "churn: add N, cancel a random half, re-add it, 10,000 cell rebinds; then a steady window"
    case .herd: "thundering herd: N countdowns changing on the same instant, 2 threads adding and cancelling"
    }
  }

  /// The window measured when none is given: a minute for the idle scenario, so that it sees one
  /// change of minute.
  public var defaultSeconds: Double {
    self == .idle ? 60 : 5
  }

  /// The number of cells in lists.
  static let slotCount = 50
  /// Rebinds done by the churn scenario.
  static let churnRebinds = 10_000
  /// Threads adding and cancelling in the herd scenario, each keeping this many rows alive.
  static let mutatorThreads = 2
  static let mutatorRing = 1_000

  /// Where in the second the ends of scenarios 1, 3 and 4 fall.
  public enum Phases: String, Codable, Sendable, CaseIterable {
    /// Anywhere (the default): each row changes at its own moment of the second, so that every
    /// wake-up of the engine serves a scattered tenth of the rows.
    case random
    /// At the same moment of every second (the half): what an app gets from deadlines stored to the
    /// second, or from countdowns of whole seconds started together. One wake-up a second serves
    /// every row, in the order they were added.
    case shared
  }

  /// The rows of a run with `n` countdowns (plus the extra rows the scenario adds while it runs).
  public func workload(n: Int, seed: UInt64, phases: Phases = .random) -> Workload {
    var random = SeededGenerator(seed: seed)
    switch self {
    case .steady, .churn, .list:
      let extra = self == .churn ? Self.churnRebinds : 0
      let ends: [Double] =
        switch phases {
        case .random: (0..<(n + extra)).map { _ in Double.random(in: 600..<3_000, using: &random) }
        case .shared: (0..<(n + extra)).map { _ in Double(Int.random(in: 600..<3_000, using: &random)) + 0.5 }
        }
      return Workload(ends: ends, unit: 1)
    case .idle:
      // Ends on whole minutes of a shared phase: every value changes in the same second of each minute.
      return Workload(
        ends: (0..<n).map { _ in 3_720 + 60 * Double(Int.random(in: 0..<60, using: &random)) + 30.5 }, unit: 60)
    case .herd:
      let rows = n + Self.mutatorThreads * 2 * Self.mutatorRing
      return Workload(ends: (0..<rows).map { _ in Double(Int.random(in: 600..<3_000, using: &random)) + 0.5 }, unit: 1)
    }
  }
}
