import CountdownCore
import CountdownKit
import Synchronization

/// CountdownKit's engine as a dashboard uses it for many rows at once: a board that keeps every row's
/// value (`values: .everyRow`), its changed rows handed over once per wake-up (`onChanges`), each value
/// checked by the app from the batch.
final class ColumnContender: Contender {
  public let name = "column: CountdownKit engine, board of every row's value"

  let engine: CountdownEngine<ContinuousClock>
  private let workload: Workload
  private let recorder: Recorder
  private let board: CountdownBoard<Int, RoundedDisplay, ContinuousClock>
  /// Keeps the board's handler of changed rows registered.
  private let recording: BoardObservation

  /// A contender for `workload`'s rows, shown with whole seconds.
  @MainActor
  init(workload: Workload, recorder: Recorder) {
    engine = CountdownEngine(clock: ContinuousClock())
    self.workload = workload
    self.recorder = recorder
    board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
    let anchor = workload.anchorInstant
    recording = board.onChanges { [recorder] changes in
      // One reading of the clock per batch: every change of a batch was computed at one wake-up.
      let now = anchor.duration(to: .now).seconds
      for change in changes { recorder.record(row: change.id, value: change.value.components.seconds, at: now) }
    }
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    put(row)
  }

  public func cancel(_ row: Int) {
    board.apply(.removed([row]))
  }

  public func register(_ rows: Range<Int>) -> Double? {
    let now = engine.now
    let batch = BoardChange<Int>.upserted(
      rows.map { BoardRow(id: $0, deadline: .after(now.duration(to: workload.endInstant($0)))) })
    let start = ContinuousClock.now
    board.apply(batch, asOf: now)
    return (ContinuousClock.now - start) / .seconds(1)
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    // Every row is live already: a cell reads the batches.
    put(row)
  }

  /// Puts row `row`, ending at its workload's end.
  private func put(_ row: Int) {
    let now = engine.now
    board.apply(.upserted([BoardRow(id: row, deadline: .after(now.duration(to: workload.endInstant(row))))]), asOf: now)
  }

  public var wakeUps: Int { engine.statistics.wakeUps }

  public func stop() async {
    engine.shutdown()
    await MainActor.run {}
  }
}
