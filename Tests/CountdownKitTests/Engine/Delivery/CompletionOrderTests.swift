import CountdownKit
import CountdownTesting
import Testing

/// A subscriber is shown zero before it is told that the countdown finished.
@MainActor
@Suite struct CompletionOrderTests {
  @Test func onChangeShowsZeroBeforeOnFinishRuns() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var events: [String] = []
    engine.add(
      Countdown(duration: .seconds(2), startingAt: clock.now), display: .seconds,
      onChange: { events.append("change \($0.value)") }, onFinish: { events.append("finish") })
    engine._serveDue()
    clock.advance(by: .seconds(5))
    engine._serveDue()
    #expect(events == ["change 2.0 seconds", "change 0.0 seconds", "finish"])
  }

  @Test func aBoundSlotShowsZeroBeforeTheBoardsHandlerRuns() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: String.self, display: .seconds)
    var events: [String] = []
    let finishing = board.onFinish { events.append("finish \($0)") }
    defer { finishing.cancel() }
    board.put("a", Countdown(duration: .seconds(1), startingAt: clock.now), at: clock.now)
    let slot = board.slot()
    slot.bind(to: "a") { events.append("a shows \($0.value)") }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(events == ["a shows 1.0 seconds", "a shows 0.0 seconds", "finish a"])
  }
}
