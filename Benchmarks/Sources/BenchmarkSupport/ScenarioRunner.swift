import Foundation

/// Runs one scenario for each contender in turn, in this process, and measures each.
@MainActor
public struct ScenarioRunner {
  /// Which scenario.
  public var scenario: Scenario
  /// The scenario's N.
  public var n: Int
  /// The measured window, in seconds.
  public var seconds: Double
  /// Real time between setting up and measuring, for the contender to settle.
  public var warmUp: Double = 1
  /// Lays out the same rows in every run.
  public var seed: UInt64 = 0x5EED
  /// What the app does with each delivery.
  public var appWork = Recorder.AppWork.record
  /// Where in the second the rows' ends fall (scenarios 1, 3 and 4).
  public var phases = Scenario.Phases.random
  /// Whether to print malloc's statistics per arena (on standard error) once the contender settled.
  public var printsMallocStats = false

  /// A runner for `scenario` with `n` countdowns and a `seconds` window.
  public init(scenario: Scenario, n: Int, seconds: Double) {
    self.scenario = scenario
    self.n = n
    self.seconds = seconds
  }

  /// Measures `kind`.
  public func measure(_ kind: ContenderKind) async -> ContenderMeasurement {
    // The rows are laid out per contender, so that none starts later into its countdowns.
    let workload = scenario.workload(n: n, seed: seed, phases: phases)
    let recorder = Recorder(workload, work: appWork)
    let contender = kind.make(for: scenario, workload: workload, recorder: recorder)
    ProcessStats.trimHeap()
    Watchdog.note("scenario \(scenario.rawValue), N = \(n), \(contender.name), setting up")
    let before = ProcessStats.now()
    var extra = setUp(contender, recorder: recorder, workload: workload)
    let afterSetup = ProcessStats.now()
    try? await Task.sleep(for: .seconds(warmUp))
    let settled = ProcessStats.now()
    if printsMallocStats { ProcessStats.printMallocStats() }
    ProcessStats.trimHeap()
    let trimmed = ProcessStats.now()
    recorder.startWindow()
    Watchdog.note("scenario \(scenario.rawValue), N = \(n), \(contender.name), measuring")
    let wakeUpsBefore = contender.wakeUps
    let start = ProcessStats.now()
    extra.merge(await runWindow(contender, recorder: recorder, workload: workload)) { $1 }
    let end = ProcessStats.now()
    let wakeUps = contender.wakeUps - wakeUpsBefore
    let counts = recorder.counts
    let (quantiles, maximum) = recorder.lateness(atQuantiles: [0.5, 0.99])
    await contender.stop()

    let window = end.wallSeconds - start.wallSeconds
    let countdowns = Double(n)
    return ContenderMeasurement(
      contender: contender.name, scenario: scenario.rawValue, n: n, windowSeconds: window,
      cpuPerSecond: (end.cpuSeconds - start.cpuSeconds) / window,
      wakeUpsPerSecond: Double(wakeUps) / window,
      contextSwitchesPerSecond: Double(end.voluntarySwitches - start.voluntarySwitches) / window,
      changesPerSecond: Double(counts.changes) / window,
      deliveriesPerSecond: Double(counts.deliveries) / window,
      latenessP50Milliseconds: quantiles[0] * 1e3, latenessP99Milliseconds: quantiles[1] * 1e3,
      latenessMaxMilliseconds: maximum * 1e3, counts: counts,
      residentBytesPerCountdown: Double(settled.residentBytes - before.residentBytes) / countdowns,
      heapBytesPerCountdown: Double(settled.heapBytes - before.heapBytes) / countdowns,
      trimmedResidentBytesPerCountdown: Double(trimmed.residentBytes - before.residentBytes) / countdowns,
      setupMicrosecondsPerCountdown: (afterSetup.wallSeconds - before.wallSeconds) * 1e6 / countdowns,
      extra: extra)
  }

  /// Puts the scenario's countdowns in place; returns per-operation costs where the scenario measures them.
  private func setUp(_ contender: any Contender, recorder: Recorder, workload: Workload) -> [String: Double] {
    switch scenario {
    case .steady, .idle, .herd:
      for row in 0..<n {
        recorder.activate(row)
        contender.add(row, isolation: #isolation)
      }
      return [:]
    case .list:
      let registering = contender.register(0..<n)
      for slot in 0..<Scenario.slotCount {
        recorder.activate(slot)
        contender.bind(slot: slot, to: slot)
      }
      return registering.map { ["register µs/row (one call)": $0 * 1e6 / Double(n)] } ?? [:]
    case .churn:
      return churn(contender, recorder: recorder)
    }
  }

  /// Add N, cancel a random half, re-add it, register rows for a list and rebind cells over them,
  /// timing each step.
  private func churn(_ contender: any Contender, recorder: Recorder) -> [String: Double] {
    var random = SeededGenerator(seed: seed ^ 0xC4)
    let half = Array((0..<n).shuffled(using: &random).prefix(n / 2))
    var costs: [String: Double] = [:]
    func timed(_ name: String, operations: Int, _ body: () -> Void) {
      let start = ProcessStats.now()
      body()
      let end = ProcessStats.now()
      costs["\(name) ns/op (real)"] = (end.wallSeconds - start.wallSeconds) * 1e9 / Double(max(operations, 1))
      costs["\(name) ns/op (CPU)"] = (end.cpuSeconds - start.cpuSeconds) * 1e9 / Double(max(operations, 1))
    }
    timed("add", operations: n) {
      for row in 0..<n {
        recorder.activate(row)
        contender.add(row, isolation: #isolation)
      }
    }
    timed("cancel", operations: half.count) {
      for row in half {
        contender.cancel(row)
        recorder.deactivate(row)
      }
    }
    timed("re-add", operations: half.count) {
      for row in half {
        recorder.activate(row)
        contender.add(row, isolation: #isolation)
      }
    }
    let listRows = n..<(n + Scenario.churnRebinds)
    timed("register", operations: listRows.count) { contender.register(listRows) }
    timed("rebind", operations: listRows.count) {
      var previous = [Int?](repeating: nil, count: Scenario.slotCount)
      for row in listRows {
        let slot = row % Scenario.slotCount
        if let old = previous[slot] { recorder.deactivate(old) }
        recorder.activate(row)
        contender.bind(slot: slot, to: row)
        previous[slot] = row
      }
    }
    return costs
  }

  /// The measured window: idle for most scenarios, scrolling for the list, mutating threads for the herd.
  private func runWindow(_ contender: any Contender, recorder: Recorder, workload: Workload) async -> [String: Double] {
    switch scenario {
    case .steady, .idle, .churn:
      try? await Task.sleep(for: .seconds(seconds))
      return [:]
    case .list:
      await scroll(contender, recorder: recorder)
      return [:]
    case .herd:
      let mutators = (0..<Scenario.mutatorThreads).map { index in
        Mutator(
          contender: contender, recorder: recorder, rows: n + index * 2 * Scenario.mutatorRing,
          ring: Scenario.mutatorRing)
      }
      try? await Task.sleep(for: .seconds(seconds))
      var latencies: [Double] = []
      for mutator in mutators { latencies += await mutator.stop() }
      latencies.sort()
      guard !latencies.isEmpty else { return [:] }
      return [
        "add/cancel calls": Double(latencies.count),
        "add/cancel p50 µs": latencies[latencies.count / 2] * 1e6,
        "add/cancel p99 µs": latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1e6,
        "add/cancel max µs": latencies[latencies.count - 1] * 1e6,
      ]
    }
  }

  /// Scrolls a page (rebinding every cell to a new row) 10 times a second.
  private func scroll(_ contender: any Contender, recorder: Recorder) async {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .seconds(seconds))
    var next = clock.now
    var page = 0
    while next < end {
      next = next.advanced(by: .milliseconds(100))
      try? await clock.sleep(until: next)
      page += 1
      let first = (page * Scenario.slotCount) % max(n - Scenario.slotCount, 1)
      for slot in 0..<Scenario.slotCount {
        recorder.deactivate(((page - 1) * Scenario.slotCount) % max(n - Scenario.slotCount, 1) + slot)
        recorder.activate(first + slot)
        contender.bind(slot: slot, to: first + slot)
      }
    }
  }
}
