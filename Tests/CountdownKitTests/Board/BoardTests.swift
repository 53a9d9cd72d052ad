import CountdownKit
import CountdownTesting
import Testing

/// Timers owned by reusable views fail: a cell that scrolls away kills its timer, or a reused cell shows
/// another row's time. On a board, views own nothing: a slot is bound to an ID, rebinding it ends its
/// previous binding, and rows finish whether or not a slot shows them. Refreshes, pauses, completions of
/// rows off screen, and cells that are reused or go away.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct BoardTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>
  typealias Board = CountdownBoard<String, RoundedDisplay, ManualClock>

  func makeBoard() -> (Board, CountdownEngine<ManualClock>, ManualClock) {
    let (engine, clock) = makeManualEngine()
    return (engine.board(of: String.self, display: .seconds), engine, clock)
  }

  func countdown(_ seconds: Int64, _ clock: ManualClock) -> Countdown<ManualClock.Instant> {
    Countdown(duration: .seconds(seconds), startingAt: clock.now)
  }

  // MARK: - Refresh

  @Test func aRefreshTakesEachRowFromTheSourceAndStopsRowsThatLeft() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    var finished: [String] = []
    let finishing = board.onFinish { finished.append($0) }
    defer { finishing.cancel() }
    func row(_ id: String, _ deadline: Deadline) -> BoardRow<String> {
      BoardRow(id: id, deadline: deadline)
    }
    board.apply(
      .reloaded([
        row("paused", .after(.seconds(30))), row("running", .after(.seconds(30))), row("leaving", .after(.seconds(5))),
      ]))
    board.pause("paused")
    clock.advance(by: .seconds(2))
    engine._serveDue()

    // The server sends every row again, the paused one as paused; "leaving" is no longer in the list.
    board.apply(
      .reloaded([
        row("paused", .paused(remaining: .seconds(28))), row("running", .after(.seconds(100))),
        row("new", .after(.seconds(3))),
      ]))
    #expect(Set(board.ids) == ["paused", "running", "new"])
    #expect(board.countdown(for: "paused")?.isPaused == true)
    #expect(board.countdown(for: "paused")?.remaining(at: clock.now) == .seconds(28), "the source's frozen time")
    #expect(board.countdown(for: "running")?.remaining(at: clock.now) == .seconds(100), "moves to the new end")
    #expect(board.countdown(for: "leaving") == nil)
    #expect(engine.count == 3)
    // Paused by the source, the row stays paused when the whole board resumes.
    board.pauseAll()
    board.resumeAll()
    #expect(board.countdown(for: "paused")?.isPaused == true)

    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(finished == ["new"], "a row that left never reports its completion")
    #expect(board.countdown(for: "paused")?.remaining(at: clock.now) == .seconds(28))
    // A refresh that repeats a finished row does not report it again.
    board.apply(.reloaded([row("paused", .after(.seconds(100))), row("new", .after(.seconds(-7)))]))
    engine._serveDue()
    #expect(finished == ["new"])
    #expect(board.countdown(for: "paused")?.isPaused == false, "running again: the source says so")
  }

  @Test func aDurationCountsFromTheBatchOrFromTheInstantItWasMeasuredAt() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    let measured = clock.now
    clock.advance(by: .seconds(3))
    board.apply(.upserted([BoardRow(id: "from now", deadline: .after(.seconds(10)))]))
    board.apply(.upserted([BoardRow(id: "as of", deadline: .after(.seconds(10)))]), asOf: measured)
    board.apply(.upserted([BoardRow(id: "over", deadline: .after(.seconds(-2)), total: .seconds(60))]))
    #expect(board.countdown(for: "from now")?.remaining(at: clock.now) == .seconds(10))
    #expect(board.countdown(for: "as of")?.remaining(at: clock.now) == .seconds(7))
    #expect(board.countdown(for: "over")?.remaining(at: clock.now) == .seconds(-2))
    #expect(board.countdown(for: "over")?.total == .seconds(60))
    // A countdown of the engine's clock becomes a row with what it has left.
    let turn = Countdown(end: clock.now.advanced(by: .seconds(30)), total: .seconds(40))
    board.apply(.upserted([BoardRow(id: "turn", countdown: turn, at: clock.now)]))
    board.apply(.upserted([BoardRow(id: "held", countdown: turn.paused(at: clock.now), at: clock.now)]))
    #expect(board.countdown(for: "turn") == turn)
    #expect(board.countdown(for: "held")?.isPaused == true)
    #expect(board.countdown(for: "held")?.remaining(at: clock.now) == .seconds(30))
    #expect(
      board.row(for: "held") == BoardRow(id: "held", deadline: .paused(remaining: .seconds(30)), total: .seconds(40)))
  }

  @Test func pauseAllAndResumeAllLeaveRowsPausedOnTheirOwnPaused() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put(["a": countdown(60, clock), "b": countdown(60, clock)], at: clock.now)
    board.put("c", countdown(45, clock).paused(at: clock.now), at: clock.now)
    clock.advance(by: .seconds(5))
    board.pause("b")
    clock.advance(by: .seconds(5))
    board.pauseAll()
    clock.advance(by: .seconds(100))
    // Resuming one row while the board is paused takes effect when the board resumes.
    board.resume("c")
    #expect(board.countdown(for: "c")?.isPaused == true)
    board.resumeAll()
    #expect(board.countdown(for: "a")?.remaining(at: clock.now) == .seconds(50))
    #expect(board.countdown(for: "a")?.isPaused == false)
    #expect(board.countdown(for: "b")?.remaining(at: clock.now) == .seconds(55))
    #expect(board.countdown(for: "b")?.isPaused == true)
    #expect(board.countdown(for: "c")?.remaining(at: clock.now) == .seconds(45))
    #expect(board.countdown(for: "c")?.isPaused == false)
    board.resume("b")
    clock.advance(by: .seconds(5))
    #expect(board.countdown(for: "b")?.remaining(at: clock.now) == .seconds(50))
  }

  // MARK: - Completions of rows nobody looks at

  @Test func unboundRowsReportTheirCompletionToTheSequenceAndTheHandler() async {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    var handled: [String] = []
    let finishing = board.onFinish { handled.append($0) }
    defer { finishing.cancel() }
    var events = board.finished().makeAsyncIterator()
    board.put(
      ["first": countdown(1, clock), "second": countdown(2, clock), "never": countdown(1_000, clock)], at: clock.now)
    board.put("done", Countdown(end: clock.now.advanced(by: .seconds(-1))), at: clock.now)
    engine._serveDue()
    #expect(await events.next() == "done")
    clock.advance(by: .milliseconds(1_500))
    engine._serveDue()
    #expect(await events.next() == "first")
    clock.advance(by: .seconds(60))
    engine._serveDue()
    #expect(await events.next() == "second")
    #expect(handled == ["done", "first", "second"])
    #expect(board.bindingState(of: "first") == (false, false), "unbound rows cost only their completion entry")
  }

  @Test func aRowFinishesAgainOnlyAfterItWasMovedIntoTheFuture() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    var handled: [String] = []
    let finishing = board.onFinish { handled.append($0) }
    defer { finishing.cancel() }
    board.put("a", countdown(1, clock), at: clock.now)
    clock.advance(by: .seconds(2))
    engine._serveDue()
    board.put("a", Countdown(end: clock.now.advanced(by: .seconds(-5))), at: clock.now)
    engine._serveDue()
    #expect(handled == ["a"])
    board.put("a", countdown(1, clock), at: clock.now)
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(handled == ["a", "a"])
  }

  // MARK: - Slots

  @Test func aSlotRendersAtOnceAndFollowsItsRowThroughRemovalAndReturn() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    var shown: [Duration] = []
    let slot = board.slot()
    slot.bind(to: "later") { shown.append($0.value) }
    #expect(shown.isEmpty, "nothing to show until the row is on the board")
    board.put("later", countdown(10, clock), at: clock.now)
    engine._serveDue()
    #expect(shown == [.seconds(10)])
    board.apply(.removed(["later"]))
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(shown == [.seconds(10)])
    board.put("later", countdown(10, clock), at: clock.now)
    engine._serveDue()
    #expect(shown == [.seconds(10)], "a row that comes back as the slot shows it renders nothing new")
    board.apply(.removed(["later"]))
    board.put("later", countdown(20, clock), at: clock.now)
    engine._serveDue()
    #expect(shown == [.seconds(10), .seconds(20)], "a row that comes back with another value renders it")
    #expect(slot.boundID == "later")
  }

  @Test func rebindingDropsWhatWasQueuedForThePreviousBinding() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put(["a": countdown(10, clock), "b": countdown(20, clock)], at: clock.now)
    var shown: [String] = []
    let slot = board.slot()
    slot.bind(to: "a") { shown.append("a \($0.value)") }
    #expect(shown == ["a 10.0 seconds"])
    // A change of row "a" queued for the main actor, not yet delivered...
    board.put("a", countdown(5, clock), at: clock.now)
    // ...when the cell is reused for row "b".
    slot.bind(to: "b") { shown.append("b \($0.value)") }
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(shown == ["a 10.0 seconds", "b 20.0 seconds", "b 19.0 seconds"])
    #expect(board.bindingState(of: "a") == (false, false))
    #expect(board.bindingState(of: "b") == (true, true))
  }

  @Test func aSecondSlotOnARowShowsItBesideTheFirst() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put("a", countdown(10, clock), at: clock.now)
    var shown: [String] = []
    let first = board.slot()
    let second = board.slot()
    first.bind(to: "a") { shown.append("first \($0.value)") }
    second.bind(to: "a") { shown.append("second \($0.value)") }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(shown == ["first 10.0 seconds", "second 10.0 seconds", "first 9.0 seconds", "second 9.0 seconds"])
    // One slot letting go leaves the other bound, and renders nothing again in it.
    first.unbind()
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(shown.suffix(2) == ["second 9.0 seconds", "second 8.0 seconds"])
    #expect(first.boundID == nil && second.boundID == "a")
    #expect(board.bindingState(of: "a") == (true, true))
    second.unbind()
    #expect(board.bindingState(of: "a") == (false, false))
    #expect(engine.statistics.subscribers == 0)
  }

  /// A table cell that owns a slot, the way an app would write it.
  final class Cell {
    var slot: CountdownSlot<String, RoundedDisplay, ManualClock>?
    var text = ""
  }

  @Test func aReleasedSlotUnbindsItselfAndLeavesNothingBehind() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put("a", countdown(10, clock), at: clock.now)
    weak var weakSlot: CountdownSlot<String, RoundedDisplay, ManualClock>?
    weak var weakCell: Cell?
    do {
      let cell = Cell()
      let slot = board.slot()
      cell.slot = slot
      slot.bind(to: "a") { [weak cell] in cell?.text = "\($0.value)" }
      weakSlot = slot
      weakCell = cell
      #expect(cell.text == "10.0 seconds")
      #expect(board.bindingState(of: "a") == (true, true))
    }
    #expect(weakCell == nil, "the board keeps no reference to the cell")
    #expect(weakSlot == nil, "the slot went with its cell")
    #expect(board.bindingState(of: "a") == (false, false), "the released slot's binding is gone")
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(engine.count == 1)
  }

  @Test func aSlotSetToNilUnbinds() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put("a", countdown(10, clock), at: clock.now)
    var renders = 0
    var slot: CountdownSlot<String, RoundedDisplay, ManualClock>? = board.slot()
    weak let weakSlot = slot
    slot?.bind(to: "a") { _ in renders += 1 }
    slot = nil
    #expect(weakSlot == nil)
    #expect(board.bindingState(of: "a") == (false, false))
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(renders == 1)
  }

  @Test func aReleasedSlotIsNotRenderedAnyMore() {
    let (board, engine, clock) = makeBoard()
    defer { engine.shutdown() }
    board.put("a", countdown(10, clock), at: clock.now)
    var renders = 0
    var slot: CountdownSlot<String, RoundedDisplay, ManualClock>? = board.slot()
    slot?.bind(to: "a") { _ in renders += 1 }
    // A change queued for the main actor, then the cell goes away before it is delivered.
    board.put("a", countdown(5, clock), at: clock.now)
    slot = nil
    engine._serveDue()
    #expect(renders == 1)
  }
}
