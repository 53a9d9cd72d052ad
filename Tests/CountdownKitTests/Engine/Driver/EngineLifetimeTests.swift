import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// Dropping the last reference to an engine with work scheduled is never a silent stop: the engine keeps
/// itself while something is scheduled, as a run loop keeps its timers, and goes once nothing is.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct EngineLifetimeTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  /// The README's ten lines in a function that returns: a local engine, its handle dropped.
  @Test func anEngineDroppedWithWorkScheduledStillShowsAndFinishes() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var shown: [Duration] = []
    var finishes = 0
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      engine.add(
        Countdown(duration: .seconds(2), startingAt: clock.now), display: .seconds,
        onChange: { shown.append($0.value) }, onFinish: { finishes += 1 })
    }
    #expect(weakEngine != nil, "its countdown is scheduled: the engine keeps itself")
    await waitForSleeper(clock)
    clock.advance(by: .milliseconds(1_500))
    await waitUntil("1 s shown") { shown.last == .seconds(1) }
    await waitForSleeper(clock)
    clock.advance(by: .seconds(1))
    await waitUntil("the completion fired") { finishes == 1 }
    #expect(shown == [.seconds(2), .seconds(1), .zero])
    await waitUntil("the engine went away once nothing was scheduled") { weakEngine == nil }
    await waitUntil("its driver stopped sleeping") { clock.sleeperCount == 0 }
  }

  @Test func aCompletionFarAwayKeepsTheEngineUntilItFires() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var finishes = 0
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      engine.add(Countdown(duration: .seconds(3 * 86_400), startingAt: clock.now)) { finishes += 1 }
    }
    // The driver sleeps at most an hour at a time: each step keeps the engine.
    for _ in 0..<72 {
      await waitForSleeper(clock)
      #expect(weakEngine != nil)
      clock.advance(by: .seconds(3_600))
    }
    await waitUntil("the completion fired after three days") { finishes == 1 }
    await waitUntil("the engine went away") { weakEngine == nil }
  }

  @Test func nothingScheduledKeepsNoEngineThatNobodyHolds() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var shown: [Duration] = []
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      // Paused, with its handle dropped: nothing can resume it, and nothing is scheduled.
      let paused = Countdown(duration: .seconds(60), startingAt: clock.now).paused(at: clock.now)
      engine.add(paused, display: .seconds) { shown.append($0.value) }
    }
    await waitUntil("its first snapshot was shown") { shown == [.seconds(60)] }
    await waitUntil("the engine went away") { weakEngine == nil }
  }

  @Test func aPausedCountdownWhoseHandleIsKeptKeepsItsEngine() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var finishes = 0
    var handle: CountdownHandle<ManualClock>?
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      handle = engine.add(Countdown(duration: .seconds(1), startingAt: clock.now)) { finishes += 1 }
      handle?.pause()
    }
    clock.advance(by: .seconds(5))
    #expect(weakEngine != nil, "the handle holds it")
    handle?.resume()
    handle = nil
    #expect(weakEngine != nil, "resumed: scheduled again, the engine keeps itself")
    await waitForSleeper(clock)
    clock.advance(by: .seconds(2))
    await waitUntil("the completion fired") { finishes == 1 }
    await waitUntil("the engine went away") { weakEngine == nil }
  }

  @Test func shutdownIsTheExplicitStop() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var finishes = 0
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      engine.add(Countdown(duration: .seconds(1), startingAt: clock.now)) { finishes += 1 }
      engine.shutdown()
    }
    await waitUntil("the engine went away") { weakEngine == nil }
    await waitUntil("its driver stopped sleeping") { clock.sleeperCount == 0 }
    clock.advance(by: .seconds(2))
    #expect(finishes == 0)
  }

  @Test func aSnapshotSequenceKeepsItsEngineRunningUntilItIsDropped() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    var iterator: AsyncStream<Snapshot>.Iterator?
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      iterator = engine.snapshots(of: Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds)
        .makeAsyncIterator()
    }
    #expect(await iterator?.next()?.value == .seconds(60))
    await waitForSleeper(clock)
    clock.advance(by: .milliseconds(1_500))
    #expect(await iterator?.next()?.value == .seconds(59), "the engine went on for the sequence")
    #expect(weakEngine != nil)
    iterator = nil  // dropping the sequence cancels its countdown
    await waitUntil("the engine went away") { weakEngine == nil }
  }

  @Test func aFollowingSequenceKeepsItsEngineWhileItReadsItsSource() async {
    let clock = ManualClock()
    weak var weakEngine: CountdownEngine<ManualClock>?
    let (dates, source) = AsyncStream.makeStream(of: Date.self)
    var iterator: AsyncStream<Snapshot>.Iterator?
    do {
      let engine = CountdownEngine(clock: clock, wallClock: clock)
      weakEngine = engine
      iterator = engine.snapshots(following: dates, display: .seconds).makeAsyncIterator()
    }
    source.yield(clock.currentDate.addingTimeInterval(1))
    #expect(await iterator?.next()?.value == .seconds(1))
    await waitForSleeper(clock)
    clock.advance(by: .seconds(2))
    #expect(await iterator?.next()?.isFinished == true)
    // Finished, nothing scheduled: only the reading of the source keeps the engine now.
    source.yield(clock.currentDate.addingTimeInterval(30))
    #expect(await iterator?.next()?.value == .seconds(30), "a later date counts again")
    #expect(weakEngine != nil)
    source.finish()
    await waitForSleeper(clock)
    clock.advance(by: .seconds(31))
    #expect(await iterator?.next()?.isFinished == true)
    #expect(await iterator?.next() == nil, "the source ended and the countdown settled: the sequence ends")
    iterator = nil
    await waitUntil("the engine went away") { weakEngine == nil }
  }
}
