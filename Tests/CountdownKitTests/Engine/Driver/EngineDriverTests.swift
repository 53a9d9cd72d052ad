import CountdownKit
import CountdownTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct EngineDriverTests {
  @Test func streamDeliversFirstSnapshotAtOnceThenEachSecond() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let stream = engine.snapshots(
      of: Countdown(duration: .milliseconds(2_500), startingAt: clock.now), display: .seconds)
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.value == .seconds(3))
    await waitForSleeper(clock)
    clock.advance(by: .milliseconds(600))
    #expect(await iterator.next()?.value == .seconds(2))
    await waitForSleeper(clock)
    clock.advance(by: .seconds(1))
    #expect(await iterator.next()?.value == .seconds(1))
    await waitForSleeper(clock)
    clock.advance(by: .seconds(1))
    let last = await iterator.next()
    #expect(last?.value == .zero)
    #expect(last?.isFinished == true)
    #expect(await iterator.next() == nil)
    #expect(engine.count == 0)
  }

  @Test func aLongFrozenGapGivesOneUpdate() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let stream = engine.snapshots(of: Countdown(duration: .seconds(100), startingAt: clock.now), display: .seconds)
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.value == .seconds(100))
    await waitForSleeper(clock)
    clock.advance(by: .milliseconds(40_300))
    let snapshot = await iterator.next()
    #expect(snapshot?.value == .seconds(60))
    #expect(snapshot?.remaining == .milliseconds(59_700))
    await waitForSleeper(clock)
    // The driver sleeps until the next boundary (59 s left, 41 s after the start) is served: at the end
    // of its slot, within the 100 ms tolerance.
    #expect(clock.sleeperDeadlines.last == .at(servedAt(.seconds(41))))
    #expect(servedAt(.seconds(41)) > .seconds(41) && servedAt(.seconds(41)) <= .milliseconds(41_100))
  }
}

/// Waits (by yielding, never sleeping) until the engine's driver sleeps on the manual clock again.
func waitForSleeper(_ clock: ManualClock, count: Int = 1) async {
  if await yieldUntil({ clock.sleeperCount >= count }) { return }
  Issue.record("The engine's driver never went back to sleep")
}
