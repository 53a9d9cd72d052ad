import CountdownKit
import CountdownTesting
import Testing

/// Lifetimes one can predict: a countdown put on a board runs to its finish unless the app takes it
/// off, whatever happens to the board's references; every handler can be removed; reading a property
/// subscribes to nothing.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct BoardLifetimeTests {
  typealias Board = CountdownBoard<Int, RoundedDisplay, ManualClock>

  func rows(_ seconds: [Int64]) -> [BoardRow<Int>] {
    seconds.enumerated().map { BoardRow(id: $0.offset, deadline: .after(.seconds($0.element))) }
  }

  @Test func aBoardThatGoesAwayLetsItsRowsRunToTheirFinish() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var finished: [Int] = []
    weak var gone: Board?
    let finishing: BoardObservation
    let sequence: AsyncStream<Int>
    do {
      let board = engine.board(of: Int.self, display: .seconds)
      gone = board
      finishing = board.onFinish { finished.append($0) }
      sequence = board.finished()
      board.apply(.upserted(rows([1, 2, 3, 4, -1, 5])))
      board.pause(3)
      engine._serveDue()
      #expect(finished == [4], "row 4 was over when it was put on the board")
      #expect(engine.count == 6)
    }
    #expect(gone == nil, "nothing of the engine keeps a board alive")
    // The paused row (nothing can resume it now) and the row that finished go with the board.
    #expect(engine.count == 4)
    for _ in 0..<6 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(finished == [4, 0, 1, 2, 5], "each running row finished and reported it once")
    #expect(engine.count == 0, "and was forgotten once it had")
    #expect(engine.statistics.subscribers == 0)
    // The sequence saw the rows that finished after it was made, and ended with the board's last row.
    var seen: [Int] = []
    for await id in sequence { seen.append(id) }
    #expect(seen == [4, 0, 1, 2, 5])
    finishing.cancel()
  }

  /// The board's side and the engine's side of one rule: an app that keeps neither its board nor its
  /// engine, only the observation of its handler, still gets each row's completion, and then nothing
  /// is left (the engine, which keeps itself while work is scheduled, goes too).
  @Test func aBoardAndItsEngineBothDroppedStillFinishTheirRows() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    weak var weakBoard: Board?
    var finished: [Int] = []
    let finishing: BoardObservation
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      let board = engine.board(of: Int.self, display: .seconds)
      (weakEngine, weakBoard) = (engine, board)
      finishing = board.onFinish { finished.append($0) }
      board.apply(.upserted(rows([1, 2])))
    }
    #expect(weakBoard == nil)
    #expect(weakEngine != nil, "its rows are scheduled: the engine keeps itself")
    for _ in 0..<2 {
      await waitForSleeper(clock)
      clock.advance(by: .seconds(1))
    }
    await waitUntil("both rows finished") { finished.count == 2 }
    #expect(finished == [0, 1])
    await waitUntil("the engine went away once nothing was left") { weakEngine == nil }
    finishing.cancel()
  }

  @Test func aBoardWithoutRowsLeftIsForgottenAtOnce() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let sequence: AsyncStream<Int>
    do {
      let board = engine.board(of: Int.self, display: .seconds)
      board.apply(.upserted(rows([1])))
      clock.advance(by: .seconds(2))
      engine._serveDue()
      sequence = board.finished()
    }
    #expect(engine.count == 0)
    for await _ in sequence { Issue.record("the board is gone with no row left: its sequence ends") }
    // A board made after it takes its place; nothing of the old one reaches it.
    let board = engine.board(of: Int.self, display: .seconds)
    var finished: [Int] = []
    let finishing = board.onFinish { finished.append($0) }
    defer { finishing.cancel() }
    board.apply(.upserted(rows([1])))
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(finished == [0])
  }

  @Test func aRowOfABoardThatWentAwayStillShowsZeroBeforeItsHandlerRuns() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var events: [String] = []
    let finishing: BoardObservation
    do {
      let board = engine.board(of: Int.self, display: .seconds)
      finishing = board.onFinish { events.append("finished \($0)") }
      board.apply(.upserted(rows([2])))
    }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(events.isEmpty)
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(events == ["finished 0"])
    finishing.cancel()
  }

  @Test func everyHandlerCanBeRemoved() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
    var calls: [String] = []
    let kept = board.onFinish { calls.append("kept \($0)") }
    let cancelled = board.onFinish { calls.append("cancelled \($0)") }
    _ = board.onFinish { calls.append("dropped \($0)") }
    var removedByAnother: BoardObservation?
    let remover = board.onFinish { _ in removedByAnother?.cancel() }
    removedByAnother = board.onFinish { calls.append("removed by another \($0)") }
    let changes = board.onChanges { calls.append("changes \($0.ids.sorted())") }
    let droppedChanges = board.onChanges { calls.append("dropped changes \($0.ids.sorted())") }
    cancelled.cancel()
    cancelled.cancel()
    board.apply(.upserted(rows([1])))
    engine._serveDue()
    #expect(calls == ["changes [0]", "dropped changes [0]"])
    droppedChanges.cancel()
    // A board that keeps every row's value serves a second's change within its tolerance after it.
    clock.advance(by: .seconds(2))
    engine._serveDue()
    #expect(calls == ["changes [0]", "dropped changes [0]", "kept 0", "changes [0]"])
    withExtendedLifetime((kept, remover, changes)) {}
  }

  @Test func aHandlerThatCapturesItsBoardLeaksNothing() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    weak var gone: Board?
    var counts: [Int] = []
    do {
      let board = engine.board(of: Int.self, display: .seconds)
      gone = board
      // The DocC header's shape: a handler that reads its board.
      let finishing = board.onFinish { _ in counts.append(board.count) }
      board.apply(.upserted(rows([1, 2])))
      clock.advance(by: .seconds(1))
      engine._serveDue()
      finishing.cancel()
    }
    #expect(counts == [2])
    #expect(gone == nil, "the handler was the board's last reference; removing it let the board go")
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(counts == [2])
    #expect(engine.count == 0)
  }

  @Test func readingAPropertySubscribesToNothing() {
    let (engine, _) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
    board.apply(.upserted(rows([5, 6])))
    for _ in 0..<10 {
      _ = board.count
      _ = board.ids
      _ = board.counts
    }
    #expect(board.sequenceCounts == (0, 0))
    let finished = board.finished()
    let changes = board.changes()
    #expect(board.sequenceCounts == (1, 1), "a call subscribes, at once")
    withExtendedLifetime((finished, changes)) {}
  }

  @Test func aSequenceMadeBeforeItsIterationSeesWhatCameBetween() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
    let finished = board.finished()
    let changes = board.changes()
    board.apply(.upserted(rows([1])))
    clock.advance(by: .seconds(2))
    engine._serveDue()
    var iterator = finished.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    var batches = changes.makeAsyncIterator()
    #expect(await batches.next().map { Array($0.ids) } == [0])
  }

  @Test func theValuesOfABoardThatGoesAwayEndWithIt() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let changes: BoardChangeSequence<Int, RoundedDisplay, ManualClock>
    do {
      let board = engine.board(of: Int.self, display: .seconds, values: .everyRow)
      changes = board.changes()
      board.apply(.upserted(rows([3])))
    }
    clock.advance(by: .seconds(4))
    engine._serveDue()
    var batches = 0
    for await _ in changes { batches += 1 }
    #expect(batches <= 1, "at most what was posted before the board went; then the sequence ends")
    #expect(engine.count == 0)
  }
}
