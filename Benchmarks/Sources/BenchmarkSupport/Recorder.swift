import Synchronization

/// Receives every value a contender delivers and checks it against the truth: lateness after the
/// boundary at which the value became true, values skipped, values delivered twice in a row, values
/// shown before their time, and deliveries for rows that were cancelled.
///
/// A value `v` of a display rounding the remaining time up to `unit` becomes true when the remaining
/// time reaches `v`, i.e. at `end - v`; a delivery at `now` is `now - (end - v)` late (negative: early).
public final class Recorder: Sendable {
  /// What the app does with each delivery.
  public enum AppWork: String, Sendable, CaseIterable {
    /// Checks the value against the truth, in a row of its own (the default; every figure is checked).
    case record
    /// Only counts the delivery: no memory of the app's per row is touched, nothing is checked. Shows
    /// what a contender costs by itself, apart from reading and writing the app's rows.
    case count
  }

  /// What was delivered during the measured window.
  public struct Counts: Codable, Sendable {
    /// Every call: changes, duplicates, first renders, and calls for cancelled rows.
    public var deliveries = 0
    /// Deliveries of a value different from the row's previous one.
    public var changes = 0
    /// First renders after a row was added or bound (no boundary to be late for).
    public var initial = 0
    /// Values that were never delivered between two deliveries of a row.
    public var skipped = 0
    /// Deliveries of the same value as the row's previous delivery.
    public var duplicated = 0
    /// Deliveries of a value whose time had not come yet.
    public var early = 0
    /// Deliveries for a row after it was cancelled or unbound.
    public var afterCancel = 0
  }

  private struct Row {
    var end: Double
    var last: Int64 = 0
    var isActive = false
    var isFresh = true
  }

  private struct State {
    var rows: [Row]
    var counts = Counts()
    var lateness = LatencyHistogram()
  }

  private let unit: Int64
  private let state: Mutex<State>
  private let work: AppWork
  private let deliveries = Atomic<Int>(0)

  /// A recorder for the rows of `workload`.
  public init(_ workload: Workload, work: AppWork = .record) {
    unit = workload.unit
    self.work = work
    state = Mutex(State(rows: workload.ends.map { Row(end: $0) }))
  }

  /// Starts expecting deliveries for `row`; its next delivery is a first render.
  public func activate(_ row: Int) {
    state.withLock { state in
      state.rows[row].isActive = true
      state.rows[row].isFresh = true
    }
  }

  /// Stops expecting deliveries for `row`: any further one counts as `afterCancel`.
  public func deactivate(_ row: Int) {
    state.withLock { $0.rows[row].isActive = false }
  }

  /// Records that `value` (in seconds) was delivered for `row` at `now` (seconds after the anchor).
  public func record(row: Int, value: Int64, at now: Double) {
    guard work == .record else {
      deliveries.add(1, ordering: .relaxed)
      return
    }
    state.withLock { state in
      state.counts.deliveries += 1
      guard state.rows[row].isActive else {
        state.counts.afterCancel += 1
        return
      }
      let last = state.rows[row].last
      state.rows[row].last = value
      let lateness = now - (state.rows[row].end - Double(value))
      // A shown value that is already too low for `now` (beyond rounding noise) was shown early.
      if lateness < -1e-9 { state.counts.early += 1 }
      if state.rows[row].isFresh {
        state.rows[row].isFresh = false
        state.counts.initial += 1
        return
      }
      if value == last {
        state.counts.duplicated += 1
        return
      }
      state.counts.changes += 1
      if value < last - unit { state.counts.skipped += Int((last - value) / unit) - 1 }
      if lateness >= 0 { state.lateness.add(lateness) }
    }
  }

  /// Starts a new measured window: counts and lateness start from zero; rows keep their last values.
  public func startWindow() {
    deliveries.store(0, ordering: .relaxed)
    state.withLock { state in
      state.counts = Counts()
      state.lateness.reset()
    }
  }

  /// The CPU cost of one `record` call in nanoseconds: part of every contender's CPU figure, since
  /// every delivery is recorded.
  public static func costOfRecording() -> Double {
    let rows = 10_000
    let recorder = Recorder(Workload(ends: (0..<rows).map { Double($0) + 3_600.5 }, unit: 1))
    for row in 0..<rows { recorder.activate(row) }
    let calls = 1_000_000
    let start = ProcessStats.now()
    for call in 0..<calls {
      let row = call % rows
      recorder.record(row: row, value: Int64(3_600 + row - call / rows), at: Double(call / rows) + 0.01)
    }
    return (ProcessStats.now().cpuSeconds - start.cpuSeconds) * 1e9 / Double(calls)
  }

  /// The counts of the window so far (with ``AppWork/count``: only the deliveries).
  public var counts: Counts {
    guard work == .record else { return Counts(deliveries: deliveries.load(ordering: .relaxed)) }
    return state.withLock { $0.counts }
  }

  /// Lateness of the window's changes in seconds at the given quantiles, and the maximum.
  public func lateness(atQuantiles quantiles: [Double]) -> (values: [Double], maximum: Double) {
    state.withLock { state in (quantiles.map { state.lateness.value(atQuantile: $0) }, state.lateness.maximum) }
  }
}
