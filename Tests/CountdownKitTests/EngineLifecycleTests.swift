import CountdownKit
import CountdownTesting
import Testing

/// Subscriptions that end, engines that shut down, boards that go away.
@MainActor
@Suite(.timeLimit(.minutes(1)))
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
}
