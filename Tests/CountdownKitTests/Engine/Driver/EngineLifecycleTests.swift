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

  @Test func shuttingDownLetsGoOfWhatWasOnItsWayWithNoLockHeld() async {
    let (engine, clock) = makeManualEngine()
    var board: CountdownBoard<Int, RoundedDisplay, ManualClock>? = engine.board(of: Int.self, display: .seconds)
    var handled: [Int] = []
    let observation = board?.onFinish { handled.append($0) }
    let finished = board?.finished()
    board?.put(1, Countdown(duration: .seconds(1), startingAt: clock.now), at: clock.now)
    clock.advance(by: .seconds(2))
    // The completion's handler call is on its way to the main actor (held here): it holds the board's
    // finish events last once the board is gone. Shutting down drops it; the events go, and end their
    // sequences, with no lock held (debug builds trap otherwise).
    engine._serveDueElsewhere()
    board = nil
    engine.shutdown()
    #expect(handled.isEmpty)
    var iterator = finished?.makeAsyncIterator()
    #expect(await iterator?.next() == 1, "yielded before the shutdown, off the main actor")
    #expect(await iterator?.next() == nil, "the sequence ended with its board's finish events")
    withExtendedLifetime(observation) {}
  }

  @Test func anEngineOnTheContinuousClockNeedsNoArguments() {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let handle = engine.add(Countdown(duration: .seconds(60), startingAt: engine.now)) {}
    #expect(handle.countdown?.remaining(at: engine.now) ?? .zero > .seconds(59))
    #expect(engine.count == 1)
  }
}

/// The engine's lifecycle as a state machine (`EngineLifecycle`): each transition and the action it
/// returns, driven by hand.
@Suite struct EngineLifecycleStateTests {
  typealias Lifecycle = EngineLifecycle<ContinuousClock>
  let now = ContinuousClock.now

  @Test func aSleepingDriverIsWokenOnlyForAnEarlierWakeUp() {
    let sleeper = Task<Void, Never> {}
    var lifecycle = Lifecycle.running(.stepping)
    let step = lifecycle.driverStepped(isServing: false, deadline: now.advanced(by: .seconds(1))) { _ in sleeper }
    guard case .sleep(let task) = step else { Issue.record("a deadline makes the driver sleep: \(step)"); return }
    #expect(task == sleeper)
    let later = lifecycle.scheduled(nextWake: now.advanced(by: .seconds(2)))
    #expect(later == nil, "later than the sleep")
    let none = lifecycle.scheduled(nextWake: nil)
    #expect(none == nil, "nothing scheduled")
    guard case .cancel(let cancelled)? = lifecycle.scheduled(nextWake: now) else {
      Issue.record("an earlier wake-up cancels the sleeper")
      return
    }
    #expect(cancelled == sleeper)
    guard case .running(.stepping) = lifecycle else { Issue.record("\(lifecycle)"); return }
    let woken = lifecycle.scheduled(nextWake: now)
    #expect(woken == nil, "woken already")
  }

  @Test func aDriverParkedWithNothingScheduledIsResumedByWork() async {
    var lifecycle = Lifecycle.running(.stepping)
    guard case .park = lifecycle.driverStepped(isServing: false, deadline: nil, sleeper: { _ in Task {} }) else {
      Issue.record("nothing scheduled: the driver parks")
      return
    }
    // Work comes before the driver's continuation: it is handed back to be resumed at once.
    let signalled = lifecycle.scheduled(nextWake: now)
    #expect(signalled == nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let handedBack = lifecycle.driverParks(continuation)
      #expect(handedBack != nil)
      handedBack?.resume()
    }
    guard case .running(.stepping) = lifecycle else { Issue.record("\(lifecycle)"); return }
    // Work after the continuation is there resumes it.
    _ = lifecycle.driverStepped(isServing: false, deadline: nil, sleeper: { _ in Task {} })
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let handedBack = lifecycle.driverParks(continuation)
      #expect(handedBack == nil, "kept")
      guard case .resume(let resumed)? = lifecycle.scheduled(nextWake: now) else {
        Issue.record("work resumes the parked driver")
        return continuation.resume()
      }
      resumed.resume()
    }
  }

  @Test func aServeUnderWayStepsAgain() {
    var lifecycle = Lifecycle.running(.stepping)
    let steps = lifecycle.driverSteps()
    #expect(steps)
    guard case .again = lifecycle.driverStepped(isServing: true, deadline: nil, sleeper: { _ in Task {} }) else {
      Issue.record("a serve under way steps again")
      return
    }
    #expect(lifecycle.isRunning)
  }

  @Test func shuttingDownWakesTheDriverOnceAndItStopsAtItsNextStep() {
    let sleeper = Task<Void, Never> {}
    var lifecycle = Lifecycle.running(.sleeping(until: now, sleeper))
    let (shutsDown, wake) = lifecycle.shutDown(hasDriver: true)
    #expect(shutsDown)
    guard case .cancel(let cancelled)? = wake else { Issue.record("the sleeping driver is woken"); return }
    #expect(cancelled == sleeper)
    guard case .shuttingDown = lifecycle else { Issue.record("\(lifecycle)"); return }
    #expect(!lifecycle.isRunning)
    let stopping = lifecycle.scheduled(nextWake: now)
    #expect(stopping == nil, "nothing wakes a driver that is stopping")
    let again = lifecycle.shutDown(hasDriver: true)
    #expect(!again.shutsDown && again.wake == nil, "shut down once")
    let stepsAfterShutdown = lifecycle.driverSteps()
    #expect(!stepsAfterShutdown, "the driver stops")
    guard case .shutDown = lifecycle else { Issue.record("\(lifecycle)"); return }
    let stepsOnceShutDown = lifecycle.driverSteps()
    #expect(!stepsOnceShutDown)
  }

  @Test func anEngineWithoutADriverIsShutDownAtOnce() {
    var lifecycle = Lifecycle.running(.stepping)
    let (shutsDown, wake) = lifecycle.shutDown(hasDriver: false)
    #expect(shutsDown && wake == nil)
    guard case .shutDown = lifecycle else { Issue.record("\(lifecycle)"); return }
  }

  @Test func aDriverParkingWhileTheEngineShutsDownIsResumedAtOnce() async {
    var lifecycle = Lifecycle.running(.parked(nil, signalled: false))
    let (shutsDown, wake) = lifecycle.shutDown(hasDriver: true)
    #expect(shutsDown && wake == nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let handedBack = lifecycle.driverParks(continuation)
      #expect(handedBack != nil)
      handedBack?.resume()
    }
    guard case .shuttingDown = lifecycle else { Issue.record("\(lifecycle)"); return }
  }
}

extension EngineLifecycle.Wake: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.cancel(let a), .cancel(let b)): a == b
    case (.resume, .resume): true
    default: false
    }
  }
}
