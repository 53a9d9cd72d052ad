import CountdownCore

/// The contenders `compare` knows, by their short names on the command line.
public enum ContenderKind: String, CaseIterable, Codable, Sendable {
  /// CountdownKit.
  case engine
  /// CountdownKit, a board that keeps every row's value (batches of changed rows).
  case column
  /// (a) one Foundation `Timer` per countdown.
  case a
  /// (b) one shared 1 Hz `DispatchSourceTimer`.
  case b
  /// (c) an OpenCombine pipeline per countdown.
  case c

  /// Makes the contender for a scenario's workload.
  @MainActor
  func make(for scenario: Scenario, workload: Workload, recorder: Recorder) -> any Contender {
    let slots = Scenario.slotCount
    switch self {
    case .engine:
      if scenario == .idle {
        return EngineContender(workload: workload, recorder: recorder, display: .adaptive, slotCount: slots)
      }
      return EngineContender(workload: workload, recorder: recorder, display: .seconds, slotCount: slots)
    case .column: return ColumnContender(workload: workload, recorder: recorder)
    case .a: return TimerPerCountdown(workload: workload, recorder: recorder, slotCount: slots)
    case .b: return SharedDispatchTimer(workload: workload, recorder: recorder, slotCount: slots)
    case .c: return CombinePipelines(workload: workload, recorder: recorder, slotCount: slots)
    }
  }
}
