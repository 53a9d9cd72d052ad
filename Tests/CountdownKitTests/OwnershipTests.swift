import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// Who keeps a countdown, what shutting down means, and what absurd values do: through the public API.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct OwnershipTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  @Test func finishedCountdownsWhoseHandlesWereDroppedAreReleased() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var changes = 0
    for _ in 0..<5 {
      for _ in 0..<10_000 {
        engine.add(Countdown(duration: .milliseconds(50), startingAt: clock.now), display: .seconds) { _ in
          changes += 1
        }
      }
      engine._serveDue()
      #expect(engine.count == 10_000)
      clock.advance(by: .milliseconds(100))
      engine._serveDue()
      #expect(engine.count == 0, "finished, delivered, never to change again, and nobody holds a handle")
    }
    #expect(changes == 5 * 10_000 * 2, "each showed 1 s, then 0 s")
  }

  @Test func aKeptHandleKeepsAFinishedCountdownSoThatItCanRunAgain() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var finishes = 0
    var handle: CountdownHandle? = engine.add(
      Countdown(duration: .seconds(1), startingAt: clock.now), display: .seconds, onChange: { _ in },
      onFinish: { finishes += 1 })
    clock.advance(by: .seconds(2))
    engine._serveDue()
    #expect(finishes == 1)
    #expect(engine.count == 1)
    #expect(handle?.isActive == true)
    handle?.extend(by: .seconds(5))
    clock.advance(by: .seconds(5))
    engine._serveDue()
    #expect(finishes == 2, "moved into the future, it ran and completed again")
    handle = nil
    #expect(engine.count == 0, "the last copy of the handle went away: released")
  }

  @Test func aCountdownThatNeverSettlesStaysUntilCancelled() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var last: Duration?
    engine.add(Countdown(duration: .seconds(1), startingAt: clock.now), display: .secondsWithOvertime) {
      last = $0.value
    }
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(last == .seconds(-2))
    #expect(engine.count == 1, "an overtime display changes forever: it stays, as a repeating timer would")
  }

  @Test func afterShutdownNothingOfTheEngineCallsTheAppAgain() async {
    var calls = 0
    var engines: [CountdownEngine<ContinuousClock>] = []
    for _ in 0..<1_000 {
      let engine = CountdownEngine()
      // Finished at once: the completions (and first snapshots) are on their way to the main actor.
      engine.add(Countdown(duration: .zero, startingAt: engine.now)) { calls += 1 }
      engine.add(Countdown(duration: .zero, startingAt: engine.now), display: .seconds) { _ in
        calls += 1
      } onFinish: {
        calls += 1
      }
      engines.append(engine)
    }
    for engine in engines { engine.shutdown() }
    for _ in 0..<2_000 { await Task.yield() }
    #expect(calls == 0)
    #expect(engines.allSatisfy { $0.count == 0 })
  }

  @Test func aChangeOnItsWayIsDroppedWhenAnotherThreadCancels() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var shown: [Duration] = []
    let handle = engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) {
      shown.append($0.value)
    }
    engine._serveDue()
    #expect(shown == [.seconds(10)])
    // Another thread changes the countdown (a change posted for the main actor), then cancels it.
    await Task.detached {
      handle.extend(by: .seconds(5))
      handle.cancel()
    }.value
    engine._serveDue()
    #expect(shown == [.seconds(10)], "cancel() returned before the main actor ran: nothing after it")
  }

  @Test func absurdValuesSaturateAndTheDriverNeverTraps() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    var finishes = 0
    let far = engine.add(Countdown(end: clock.now.advanced(by: .seconds(Int64.max)))) { finishes += 1 }
    far.extend(by: .seconds(Int64.max))
    far.extend(by: .seconds(Int64.max))
    #expect(far.countdown?.remaining(at: clock.now) ?? .zero > .seconds(9_000_000_000), "held some 292 years away")
    // A century away: the driver sleeps towards it an hour at a time.
    engine.add(Countdown(duration: .seconds(100 * 365 * 86_400), startingAt: clock.now)) {}
    await waitForSleeper(clock)
    #expect(clock.sleeperDeadlines == [.at(.seconds(3_600))], "the driver sleeps at most an hour at once")
    far.extend(by: .seconds(-Int64.max))
    far.extend(by: .seconds(-Int64.max))
    #expect(far.countdown?.isFinished(at: clock.now) == true)
    await waitUntil("the completion arrived") { finishes == 1 }
    #expect(throws: TimelineError.self) {
      try engine.add(until: Date(timeIntervalSince1970: .infinity), display: .seconds) { _ in }
    }
    #expect(throws: TimelineError.self) { try far.retarget(to: Date(timeIntervalSince1970: .nan)) }
  }

  @Test func aSnapshotSequenceDoesNotKeepItsEngineAlive() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var iterator: AsyncStream<Snapshot>.Iterator
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      iterator = engine.snapshots(of: Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds)
        .makeAsyncIterator()
    }
    #expect(await iterator.next()?.value == .seconds(60))
    await waitUntil("the engine went away") { weakEngine == nil }
  }
}
