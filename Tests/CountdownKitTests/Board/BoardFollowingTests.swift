import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A board that follows a source of rows: batches of changes applied in order, each at once; a reload
/// that replaces the rows in one step; a source that fails.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct BoardFollowingTests {
  typealias Board = CountdownBoard<String, RoundedDisplay, ManualClock>

  struct SourceFailed: Error, Equatable {}

  func makeBoard() -> (Board, CountdownEngine<ManualClock>, ManualClock) {
    let (engine, clock) = makeManualEngine()
    return (engine.board(of: String.self, display: .seconds), engine, clock)
  }

  func row(_ id: String, in seconds: Double, _ clock: ManualClock) -> BoardRow<String> {
    BoardRow(id: id, deadline: .until(clock.currentDate.addingTimeInterval(seconds)))
  }

  func remaining(_ board: Board, _ id: String, _ clock: ManualClock) -> Duration? {
    board.countdown(for: id)?.remaining(at: clock.now)
  }

  @Test func batchesAreAppliedInTheOrderTheSourceSendsThem() async {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    let (changes, source) = AsyncStream.makeStream(of: BoardChange<String>.self)
    source.yield(.upserted([row("a", in: 60, clock), row("b", in: 60, clock), row("c", in: 60, clock)]))
    source.yield(.upserted([row("a", in: 30, clock), row("a", in: 20, clock)]))
    source.yield(.removed(["b", "nobody"]))
    source.yield(.changed(upserted: [row("c", in: 5, clock), row("d", in: 90, clock)], removed: ["c", "a"]))
    source.yield(.upserted([row("a", in: 10, clock)]))
    source.finish()
    await board.follow(changes)

    #expect(Set(board.ids) == ["a", "c", "d"])
    #expect(remaining(board, "a", clock) == .seconds(10), "the last batch wins")
    #expect(remaining(board, "c", clock) == .seconds(5), "removed, then added again by the same batch")
    #expect(remaining(board, "d", clock) == .seconds(90))
    #expect(engine.count == 3, "rows replaced and removed leave nothing behind")
  }

  @Test func aRowListedTwiceInABatchEndsUpAsItsLaterEntry() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.apply(.upserted([row("a", in: 60, clock), row("a", in: 15, clock)]))
    #expect(board.count == 1)
    #expect(remaining(board, "a", clock) == .seconds(15))
  }

  @Test func pausedRowsKeepTheirTimeLeftAndRunAgainWhenTheSourceSaysSo() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.apply(.upserted([BoardRow(id: "a", deadline: .paused(remaining: .seconds(45)), total: .seconds(60))]))
    clock.advance(by: .seconds(100))
    #expect(board.countdown(for: "a")?.isPaused == true)
    #expect(remaining(board, "a", clock) == .seconds(45))
    #expect(board.countdown(for: "a")?.total == .seconds(60))
    // A row paused by the source stays paused when the whole board resumes...
    board.pauseAll()
    board.resumeAll()
    #expect(board.countdown(for: "a")?.isPaused == true)
    // ...and runs when the source sends it running, a batch or a reload alike.
    board.apply(.reloaded([row("a", in: 30, clock)]))
    #expect(board.countdown(for: "a")?.isPaused == false)
    #expect(remaining(board, "a", clock) == .seconds(30))
  }

  @Test func aRowWhoseDateCannotBeCountedToIsRemoved() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    #expect(board.apply(.upserted([row("a", in: 60, clock), row("b", in: 60, clock)])).isEmpty)
    // One row (applied without a batch) and a batch alike say which rows they removed.
    #expect(
      board.apply(.upserted([BoardRow(id: "a", deadline: .until(Date(timeIntervalSince1970: .infinity)))])) == ["a"])
    let unusable = board.apply(
      .reloaded([
        row("b", in: 60, clock), BoardRow(id: "c", deadline: .until(Date(timeIntervalSinceReferenceDate: 1e300))),
        BoardRow(id: "d", deadline: .until(Date(timeIntervalSinceReferenceDate: -.infinity))),
      ]))
    #expect(unusable == ["c", "d"])
    #expect(board.ids == ["b"])
    #expect(engine.count == 1)
  }

  @Test func aReloadReplacesTheRowsAndKeepsBindingsAndCompletionsOfRowsThatStay() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    var finished: [String] = []
    let finishing = board.onFinish { finished.append($0) }
    defer { finishing.cancel() }
    board.apply(.upserted([row("shown", in: 60, clock), row("done", in: 2, clock), row("leaving", in: 5, clock)]))
    var shown: [Duration] = []
    let slot = board.slot()
    slot.bind(to: "shown") { shown.append($0.value) }
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(finished == ["done"])

    // Everything again: "done" with the same past end, "leaving" gone, "new" added, "shown" moved.
    let now = clock.currentDate
    board.apply(
      .reloaded([
        BoardRow(id: "shown", deadline: .until(now.addingTimeInterval(100))),
        BoardRow(id: "done", deadline: .until(now.addingTimeInterval(-1))),
        BoardRow(id: "new", deadline: .until(now.addingTimeInterval(4))),
      ]))
    #expect(Set(board.ids) == ["shown", "done", "new"])
    #expect(engine.count == 3)
    engine._serveDue()
    #expect(shown.last == .seconds(100), "the bound slot shows the new deadline")
    #expect(slot.boundID == "shown")
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(finished == ["done", "new"], "a finished row is not reported again; a row that left never is")
  }

  @Test func aSourceThatFailsEndsTheFollowingWithItsErrorAndTheRowsAppliedStay() async {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    let (changes, source) = AsyncThrowingStream.makeStream(of: BoardChange<String>.self)
    source.yield(.upserted([row("a", in: 60, clock)]))
    source.finish(throwing: SourceFailed())
    await #expect(throws: SourceFailed.self) { try await board.follow(changes) }
    #expect(board.ids == ["a"])

    // A sequence with a typed failure hands that type to the caller.
    let typed = FailingSource(rows: [row("b", in: 30, clock)])
    do throws(SourceFailed) {
      try await board.follow(typed)
      Issue.record("the source's failure was not thrown")
    } catch {
      #expect(error == SourceFailed())
    }
    #expect(Set(board.ids) == ["a", "b"])
  }

  @Test func aReloadIsSeenWholeOrNotAtAllByOtherThreads() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    let pages = [Set(0..<500), Set(300..<800)]
    let changes = pages.map { page in
      BoardChange<Int>.reloaded(page.map { BoardRow(id: $0, deadline: .until(clock.currentDate + 60)) })
    }
    board.apply(changes[0])
    let reader = Task.detached {
      var torn = 0
      for _ in 0..<2_000 where !pages.contains(Set(board.ids)) { torn += 1 }
      return torn
    }
    for reload in 0..<200 { board.apply(changes[reload % 2]) }
    #expect(await reader.value == 0, "another thread saw a half-applied reload")
    #expect(engine.count == 500)
  }

  @Test func aLargeFirstLoadInPagesIntoARoomyBoardHoldsEveryRowOnce() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    let start = clock.currentDate
    board.apply(.upserted([BoardRow(id: -1, deadline: .until(start.addingTimeInterval(5)))]))
    board.reserveCapacity(100_001)
    board.reserveCapacity(10)
    #expect(board.count == 1, "making room changes no row")
    for page in stride(from: 0, to: 100_000, by: 7_000) {
      let rows = (page..<min(page + 7_000, 100_000)).map { id in
        BoardRow(id: id, deadline: .until(start.addingTimeInterval(Double(60 + id % 600))))
      }
      board.apply(.upserted(rows))
    }
    #expect(board.count == 100_001)
    #expect(engine.count == 100_001)
    #expect(board.countdown(for: -1)?.remaining(at: clock.now) == .seconds(5))
    #expect(board.countdown(for: 54_321)?.remaining(at: clock.now) == .seconds(60 + 54_321 % 600))
  }
}

/// A source whose failure has a type: yields its rows, then fails.
struct FailingSource: AsyncSequence, Sendable {
  typealias Element = BoardChange<String>
  typealias Failure = BoardFollowingTests.SourceFailed

  let rows: [BoardRow<String>]

  struct Iterator: AsyncIteratorProtocol {
    var rows: [BoardRow<String>]?

    mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard let rows else { throw BoardFollowingTests.SourceFailed() }
      self.rows = nil
      return .upserted(rows)
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(rows: rows) }
}
