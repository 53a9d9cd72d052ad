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

  /// A contender for `workload`'s rows, shown with whole seconds.
  @MainActor
  init(workload: Workload, recorder: Recorder) {
    engine = CountdownEngine(clock: ContinuousClock())
    self.workload = workload
    self.recorder = recorder
    board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
    let anchor = workload.anchorInstant
    board.onChanges { [recorder] changes in
      // One reading of the clock per batch: every change of a batch was computed at one wake-up.
      let now = anchor.duration(to: .now).seconds
      for change in changes { recorder.record(row: change.id, value: change.value.components.seconds, at: now) }
    }
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    board.set(row, to: Countdown(end: workload.endInstant(row)))
  }

  public func cancel(_ row: Int) {
    board.remove(row)
  }

  public func register(_ rows: Range<Int>) -> Double? {
    var countdowns: [Int: Countdown<ContinuousClock.Instant>] = [:]
    countdowns.reserveCapacity(rows.count)
    for row in rows { countdowns[row] = Countdown(end: workload.endInstant(row)) }
    let start = ContinuousClock.now
    board.upsert(countdowns)
    return (ContinuousClock.now - start) / .seconds(1)
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    // Every row is live already: a cell reads the batches.
    board.set(row, to: Countdown(end: workload.endInstant(row)))
  }

  public var wakeUps: Int { engine.statistics.wakeUps }

  public func stop() async {
    engine.shutdown()
    await MainActor.run {}
  }
}
