import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// Subscriptions that end, engines that shut down, boards that go away.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct EngineLifecycleTests {
  @Test func aStreamThatEndedAtOnceDoesNotCancelTheCountdownThatTakesItsPlace() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    do {
      // Already over: the stream delivers the finished snapshot and ends; its entry is gone at once.
      let stream = engine.snapshots(of: Countdown(end: clock.now.advanced(by: .seconds(-1))), display: .seconds)
      var iterator = stream.makeAsyncIterator()
      #expect(await iterator.next()?.isFinished == true)
      #expect(await iterator.next() == nil)
      #expect(engine.count == 0)
      let other = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now)) {}
      #expect(other.isActive)
      // Dropping the stream here terminates it, which cancels its own countdown (already gone).
      _ = consume iterator
      _ = consume stream
      #expect(other.isActive, "the ended stream's handle must not reach the countdown that reused its place")
    }
  }

  @Test func shutdownEndsEverySequenceAndStopsTheDriver() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    var iterator = engine.snapshots(of: Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds)
      .makeAsyncIterator()
    #expect(await iterator.next()?.value == .seconds(60))
    await waitForSleeper(clock)
    engine.shutdown()
    #expect(await iterator.next() == nil)
    #expect(engine.count == 0)
    await waitUntil("the driver stopped sleeping") { clock.sleeperCount == 0 }
  }

  @Test func subscribingAfterShutdownEndsAtOnceInsteadOfHanging() async {
    let (engine, clock) = makeManualEngine()
    engine.shutdown()
    var iterator = engine.snapshots(of: Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds)
      .makeAsyncIterator()
    #expect(await iterator.next() == nil)
    let (dates, source) = AsyncStream.makeStream(of: Date.self)
    var following = engine.snapshots(following: dates, display: .seconds).makeAsyncIterator()
    source.yield(clock.currentDate.addingTimeInterval(60))
    #expect(await following.next() == nil)
    let handle = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now)) {}
    #expect(!handle.isActive)
    let board = engine.board(of: Int.self, display: .seconds)
    board.put(1, Countdown(duration: .seconds(60), startingAt: clock.now), at: clock.now)
    #expect(engine.count == 0)
  }

  @Test func anEngineOnTheContinuousClockNeedsNoArguments() {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let handle = engine.add(Countdown(duration: .seconds(60), startingAt: engine.now)) {}
    #expect(handle.countdown?.remaining(at: engine.now) ?? .zero > .seconds(59))
    #expect(engine.count == 1)
  }
}
