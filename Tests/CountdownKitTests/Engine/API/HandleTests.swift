import TestSupport
import CountdownKit
import CountdownTesting
import Testing

/// Targets and pauses that do not take effect (a new end date ignored, a pause that only freezes the
/// display while time runs on): retargeting, extending, pausing and cancelling take effect exactly.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct HandleTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  @Test func aCancelledCountdownNeverCompletes() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<String, Snapshot>()
    let callback = engine.add(
      Countdown(duration: .seconds(2), startingAt: clock.now), display: .seconds,
      onChange: recorder.onChange("callback"), onFinish: recorder.onFinish("callback"))
    let unbound = engine.add(
      Countdown(duration: .seconds(2), startingAt: clock.now), onFinish: recorder.onFinish("unbound"))
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    callback.cancel()
    unbound.cancel()
    #expect(!callback.isActive)
    #expect(callback.countdown == nil)
    // Everything a handle does on a cancelled countdown is a no-op.
    callback.resume()
    callback.extend(by: .seconds(5))
    callback.retarget(to: clock.now.advanced(by: .seconds(1)))
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(recorder.finishes.isEmpty)
    #expect(recorder.count("callback") == 2)
    #expect(engine.count == 0)
  }

  @Test func cancellingTheConsumerOfAStreamCancelsTheCountdown() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let stream = engine.snapshots(of: Countdown(duration: .seconds(5), startingAt: clock.now), display: .seconds)
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let consumer = Task {
      var values: [Duration] = []
      for await snapshot in stream {
        values.append(snapshot.value)
        startedContinuation.yield()
      }
      return values
    }
    var iterator = started.makeAsyncIterator()
    await iterator.next()
    #expect(engine.count == 1)
    consumer.cancel()
    #expect(await consumer.value == [.seconds(5)])
    await waitUntil("the countdown is cancelled") { engine.count == 0 }
  }

  @Test(arguments: [false, true])
  func retargetingPastTheEndBeforeItFiredFiresAtTheNewEndOnly(servedAtTheOldEnd: Bool) {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<Int, Snapshot>()
    let handle = engine.add(
      Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds,
      onChange: recorder.onChange(0), onFinish: recorder.onFinish(0))
    engine._serveDue()
    if servedAtTheOldEnd {
      clock.advance(by: .seconds(5))
      engine._serveDue()
    } else {
      // The end has passed but the driver has not woken yet: it still waits out its tolerance.
      clock.advance(by: .milliseconds(10_050))
    }
    handle.retarget(to: clock.now.advanced(by: .seconds(20)))
    clock.advance(by: .seconds(6))
    engine._serveDue()
    #expect(recorder.finishes[0] == nil)
    clock.advance(by: .seconds(14))
    engine._serveDue()
    #expect(recorder.finishes[0] == 1)
    #expect(recorder.last(0)?.isFinished == true)
    clock.advance(by: .seconds(100))
    engine._serveDue()
    #expect(recorder.finishes[0] == 1)
  }

  @Test func extendingTwiceIsExtendingByTheSumLive() {
    let seed = SeededGenerator.testSeed()
    print("HandleTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for round in 0..<50 {
      let (engine, clock) = makeManualEngine()
      defer { engine.shutdown() }
      let recorder = Recorder<Int, Snapshot>()
      let countdown = Countdown(duration: rng.duration(milliseconds: 0...20_000), startingAt: clock.now)
      let paused = Bool.random(using: &rng)
      let twice = engine.add(
        countdown, display: .secondsWithOvertime, onChange: recorder.onChange(0), onFinish: recorder.onFinish(0))
      let once = engine.add(
        countdown, display: .secondsWithOvertime, onChange: recorder.onChange(1), onFinish: recorder.onFinish(1))
      engine._serveDue()
      clock.advance(by: rng.duration(milliseconds: 0...5_000))
      if paused {
        twice.pause()
        once.pause()
      }
      let a = rng.duration(milliseconds: -10_000...10_000)
      let b = rng.duration(milliseconds: -10_000...10_000)
      twice.extend(by: a)
      twice.extend(by: b)
      once.extend(by: a + b)
      for _ in 0..<10 {
        engine._serveDue()
        #expect(twice.countdown == once.countdown, "seed \(seed), round \(round)")
        clock.advance(by: rng.duration(milliseconds: 0...3_000))
      }
      let (last0, last1) = (recorder.last(0), recorder.last(1))
      #expect(last0?.value == last1?.value, "seed \(seed), round \(round)")
      #expect(last0?.isPaused == last1?.isPaused, "seed \(seed), round \(round)")
      #expect(last0?.isFinished == last1?.isFinished, "seed \(seed), round \(round)")
      #expect(recorder.finishes[0] == recorder.finishes[1], "seed \(seed), round \(round)")
    }
  }

  @Test func changesMadeOneAfterTheOtherAtTheSameInstantCountAsOne() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<Int, Snapshot>()
    let handle = engine.add(
      Countdown(duration: .seconds(5), startingAt: clock.now), display: .seconds,
      onChange: recorder.onChange(0), onFinish: recorder.onFinish(0))
    handle.extend(by: .seconds(-10))
    handle.extend(by: .seconds(15))
    handle.retarget(to: clock.now.advanced(by: .seconds(-1)))
    handle.retarget(to: clock.now.advanced(by: .seconds(10)))
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(recorder.finishes[0] == nil, "no completion for a state that lasted no time")
    #expect(recorder.last(0)?.value == .seconds(9))
    // A change that does leave it at zero reports the completion at the next wake-up, once.
    handle.retarget(to: clock.now.advanced(by: .seconds(-1)))
    handle.pause()
    engine._serveDue()
    #expect(recorder.finishes[0] == 1)
    #expect(recorder.last(0)?.isFinished == true)
  }

  @Test func pauseAndResumeAreExact() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<Int, Snapshot>()
    let handle = engine.add(
      Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds,
      onChange: recorder.onChange(0), onFinish: recorder.onFinish(0))
    engine._serveDue()
    clock.advance(by: .milliseconds(2_345))
    handle.pause()
    engine._serveDue()
    #expect(handle.countdown?.remaining(at: clock.now) == .milliseconds(7_655))
    #expect(recorder.last(0)?.isPaused == true)
    #expect(recorder.last(0)?.value == .seconds(8))
    clock.advance(by: .seconds(3_600))
    engine._serveDue()
    #expect(handle.countdown?.remaining(at: clock.now) == .milliseconds(7_655))
    #expect(recorder.count(0) == 2, "nothing is delivered while paused")
    handle.pause()
    handle.resume()
    engine._serveDue()
    #expect(handle.countdown?.end == clock.now.advanced(by: .milliseconds(7_655)))
    #expect(recorder.last(0)?.isPaused == false)
    clock.advance(by: .milliseconds(655))
    engine._serveDue()
    #expect(recorder.last(0)?.value == .seconds(7))
    #expect(recorder.last(0)?.remaining == .seconds(7))
    clock.advance(by: .seconds(7))
    engine._serveDue()
    #expect(recorder.finishes[0] == 1)
  }

  @Test func aPausedCountdownRetargetedStaysPaused() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let handle = engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) { _ in }
    clock.advance(by: .seconds(4))
    handle.pause()
    clock.advance(by: .seconds(100))
    handle.retarget(to: ManualClock.Instant.at(.seconds(30)))
    #expect(handle.countdown?.isPaused == true)
    #expect(handle.countdown?.remaining(at: clock.now) == .seconds(26), "what was left at the pause with the new end")
  }
}

@Suite struct CancelledDeliveryTests {
  @Test @MainActor func aDeliveryQueuedBeforeCancelIsDropped() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock, tolerance: .milliseconds(100), drivesItself: false)
    var calls = 0
    // The first snapshot is queued for the main actor; cancelling before it runs must drop it.
    let handle = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds) { _ in
      calls += 1
    }
    handle.cancel()
    for _ in 0..<1_000 { await Task.yield() }
    #expect(calls == 0)
    // A countdown that is not cancelled still gets its first snapshot through the same path.
    _ = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds) { _ in calls += 1 }
    for _ in 0..<1_000 { await Task.yield() }
    #expect(calls == 1)
  }
}
