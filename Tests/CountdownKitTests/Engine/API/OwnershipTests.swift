import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// Who keeps a countdown, what shutting down means, and what absurd values do: through the public API.
@MainActor
@Suite(.timeLimit(.minutes(5)))
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

  @Test func aFinishedCountdownIsReleasedOnceItsCompletionWasDeliveredHandleOrNot() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var events: [String] = []
    let handle = engine.add(
      Countdown(duration: .seconds(1), startingAt: clock.now), display: .seconds,
      onChange: { events.append("shows \($0.value)") }, onFinish: { events.append("finished") })
    engine._serveDue()
    #expect(handle.isActive)
    clock.advance(by: .seconds(2))
    engine._serveDue()
    #expect(events == ["shows 1.0 seconds", "shows 0.0 seconds", "finished"])
    #expect(engine.count == 0, "over: released, although its handle is still here")
    #expect(!handle.isActive)
    #expect(handle.countdown == nil)
    handle.extend(by: .seconds(5))
    clock.advance(by: .seconds(5))
    engine._serveDue()
    #expect(events.count == 3, "a released countdown's handle does nothing")
  }

  @Test func aPausedCountdownAtZeroIsNotOverUntilItResumes() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let handle = engine.add(Countdown(duration: .seconds(1), startingAt: clock.now), display: .seconds) { _ in }
    clock.advance(by: .seconds(1))
    handle.pause()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(handle.isActive, "paused: it may still be moved and resumed")
    handle.extend(by: .seconds(3))
    handle.resume()
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(!handle.isActive)
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
    // Another thread changes the countdown (a change posted for the main actor), then cancels it, while
    // the main actor is held (blocked, not suspended: an `await` here would let the change be delivered
    // before the cancel, which is right and not what this test is about).
    let done = DispatchSemaphore(value: 0)
    Thread {
      handle.extend(by: .seconds(5))
      handle.cancel()
      done.signal()
    }.start()
    done.wait()
    engine._serveDue()
    for _ in 0..<100 { await Task.yield() }
    #expect(shown == [.seconds(10)], "cancel() returned before the main actor ran: nothing after it")
  }

  @Test func aCancellationNeverDropsWhatWasOnItsWayToTheSubscriberThatHadItsSlotBefore() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let events = Recorder<String, String>()
    let first = engine.add(
      Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds,
      onChange: { snapshot in events.onChange("first")("\(snapshot.value)") }, onFinish: events.onFinish("first"))
    await waitUntil("the first snapshot arrived") { events.count("first") == 1 }
    // While the main actor is held up: the first countdown is brought to zero, the driver delivers
    // its end and lets it go, a second countdown takes its sink slot and is cancelled at once.
    let done = DispatchSemaphore(value: 0)
    Thread {
      first.retarget(to: clock.now.advanced(by: .seconds(-1)))
      clock.advance(by: .milliseconds(100))
      while engine.count > 0 { clock.advance(by: .zero) }
      let second = engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) { snapshot in
        events.onChange("second")("\(snapshot.value)")
      }
      second.cancel()
      done.signal()
    }.start()
    done.wait()
    await waitUntil("the first countdown's end arrived") { events.finishes["first"] == 1 }
    #expect(events.updates["first"] == ["10.0 seconds", "0.0 seconds"])
    #expect(events.count("second") == 0)
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
    await waitUntil("the completion arrived") { finishes == 1 }
    #expect(!far.isActive, "over: released")
    #expect(throws: WallClockTimelineError.self) {
      try engine.add(until: Date(timeIntervalSince1970: .infinity), display: .seconds) { _ in }
    }
    let running = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now)) {}
    #expect(throws: WallClockTimelineError.self) { try running.retarget(to: Date(timeIntervalSince1970: .nan)) }
    #expect(running.countdown?.remaining(at: clock.now) == .seconds(60), "left as it was")
  }
}
