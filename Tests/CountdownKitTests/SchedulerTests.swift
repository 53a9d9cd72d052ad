import CountdownKit
import CountdownTesting
import Testing

/// Single behaviours of the scheduler, driven with plain instants.
@Suite struct SchedulerTests {
  typealias Instant = EngineTick

  @Test func theIDOfACountdownThatSettledAsItWasAddedNamesNothing() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let now = Instant.at(.seconds(10))
    // Already finished, and a seconds display never changes again: a stream's entry goes at once.
    let (settled, _) = scheduler.add(
      Countdown(end: Instant.at(.seconds(5))), renderer: RecordingRenderer(display: RoundedDisplay.seconds).renderer,
      onFinish: [], removesWhenSettled: true, at: now)
    #expect(!scheduler.contains(settled))
    #expect(scheduler.count == 0)
    let (next, _) = scheduler.add(
      Countdown(end: Instant.at(.seconds(60))), renderer: nil, onFinish: [], at: now)
    #expect(next != settled, "a stale ID must never name the countdown that reuses its place")
    #expect(!scheduler.contains(settled))
    scheduler.remove(settled)
    #expect(scheduler.contains(next))
  }

  @Test func aStaleItemOfARemovedCountdownNeverCountsForTheOneThatReusesItsPlace() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let now = Instant.at(.zero)
    // Due at 0.5 s (plus 100 ms), then removed: its queued item stays behind in the heap until it surfaces.
    let (first, _) = scheduler.add(Countdown(end: Instant.at(.milliseconds(500))), renderer: nil, onFinish: [], at: now)
    scheduler.remove(first)
    // Takes the same place; its first change is at 10 s minus 9 s = 1 s.
    let renderer = RecordingRenderer(display: RoundedDisplay.seconds)
    let (second, _) = scheduler.add(
      Countdown(end: Instant.at(.seconds(10))), renderer: renderer.renderer, tolerance: .milliseconds(100),
      onFinish: [], at: now
    )
    #expect(second.index == first.index)
    #expect(scheduler.nextWake() == Instant.at(servedAt(.seconds(1))), "the removed countdown's item must stay dead")
    _ = scheduler.advance(to: .at(.milliseconds(600)))
    #expect(renderer.log.count == 1)
  }

  @Test func coalescesChangesWithinTheToleranceOfEachClass() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let now = Instant.at(.zero)
    let seconds = RecordingRenderer(display: RoundedDisplay.seconds)
    let quarters = RecordingRenderer(display: RoundedDisplay.rounded(to: .milliseconds(250)))
    _ = scheduler.add(
      Countdown(end: Instant.at(.milliseconds(10_500))), renderer: seconds.renderer,
      tolerance: scheduler.tolerance(forPeriod: .seconds(1)), onFinish: [], at: now)
    _ = scheduler.add(
      Countdown(end: Instant.at(.milliseconds(10_010))), renderer: quarters.renderer,
      tolerance: scheduler.tolerance(forPeriod: .milliseconds(250)), onFinish: [], at: now)
    // Quarters change at 10 ms, served at the end of its 23.4375 ms slot (15/16 of 25 ms); seconds
    // at 500 ms, served at the end of its 93.75 ms slot.
    let quarterTolerance = Duration.milliseconds(25)
    #expect(servedAt(.milliseconds(10), tolerance: quarterTolerance) == .microseconds(23_437.5))
    #expect(scheduler.nextWake() == Instant.at(servedAt(.milliseconds(10), tolerance: quarterTolerance)))
    _ = scheduler.advance(to: Instant.at(.microseconds(23_437.5)))
    #expect(quarters.log.map(\.instant) == [now, Instant.at(.microseconds(23_437.5))])
    #expect(seconds.log.count == 1)
    // Next quarter at 260 ms.
    #expect(scheduler.nextWake() == Instant.at(servedAt(.milliseconds(260), tolerance: quarterTolerance)))
    _ = scheduler.advance(to: Instant.at(servedAt(.milliseconds(260), tolerance: quarterTolerance)))
    #expect(quarters.log.count == 3)
    // The quarter at 510 ms (served at 515.625 ms) comes before the seconds change at 500 ms, whose
    // class has a wider slot (served at 562.5 ms).
    #expect(servedAt(.milliseconds(500)) == .microseconds(562_500))
    #expect(scheduler.nextWake() == Instant.at(servedAt(.milliseconds(510), tolerance: quarterTolerance)))
  }

  @Test func aCompletionFiresOnceAndAgainOnlyAfterTheEndMovedIntoTheFuture() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let completions = CompletionLog()
    let (id, _) = scheduler.add(
      Countdown(end: Instant.at(.seconds(1))), renderer: nil, onFinish: [completions.delivery(0)], at: .at(.zero))
    #expect(scheduler.nextWake() == Instant.at(servedAt(.seconds(1))))
    perform(scheduler.advance(to: .at(.milliseconds(1_100))))
    #expect(completions.take() == [0])
    #expect(scheduler.nextWake() == nil)
    // Moving the end earlier, or pausing, or extending within the past, does not fire again.
    perform(scheduler.update(id, at: .at(.seconds(2))) { $0.extended(by: .milliseconds(-500)) })
    perform(scheduler.update(id, at: .at(.seconds(2))) { $0.paused(at: .at(.seconds(2))) })
    perform(scheduler.update(id, at: .at(.seconds(2))) { $0.resumed(at: .at(.seconds(2))) })
    perform(scheduler.advance(to: .at(.seconds(3))))
    #expect(completions.take() == [])
    // Moving it into the future re-arms it.
    perform(scheduler.update(id, at: .at(.seconds(3))) { $0.retargeted(to: .at(.seconds(4))) })
    perform(scheduler.advance(to: .at(.seconds(4))))
    #expect(completions.take() == [0])
  }

  @Test func aDisplayThatBreaksTheNextChangeContractCannotMakeTheSchedulerSpin() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let renderer = RecordingRenderer(display: StuckOnWholeSecondsDisplay())
    let (_, _) = scheduler.add(
      Countdown(end: Instant.at(.seconds(3))), renderer: renderer.renderer,
      tolerance: .milliseconds(100), onFinish: [], at: .at(.zero))
    // Served exactly on whole seconds (a manual clock can do that), where the display misbehaves.
    for second in 1...3 {
      _ = scheduler.advance(to: .at(.seconds(Int64(second))))
    }
    var now = Instant.at(.seconds(3))
    var wakes = 0
    while let wake = scheduler.nextWake(), wakes < 1_000 {
      #expect(wake > now)
      now = wake
      _ = scheduler.advance(to: now)
      wakes += 1
    }
    #expect(wakes < 1_000)
    // The display still reaches its final value: the engine retries a tolerance later.
    #expect(renderer.log.last?.seen.value == "0.0 seconds")
  }
}

/// Whole seconds, except that on an exact second it reports the current remaining time as its next
/// change (not below it, as the contract requires): the kind of off-by-one a hand-written display has.
struct StuckOnWholeSecondsDisplay: CountdownDisplay {
  func value(remaining: Duration) -> Duration {
    RoundedDisplay.seconds.value(remaining: remaining)
  }

  func nextChange(after remaining: Duration) -> Duration? {
    if remaining > .zero, remaining.components.attoseconds == 0 { return remaining }
    return RoundedDisplay.seconds.nextChange(after: remaining)
  }

  var period: Duration? { .seconds(1) }

  @Test func tolerancesAreWholeMillisecondsSoThatDisplaysShareClasses() {
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    #expect(scheduler.tolerance(forPeriod: .microseconds(123_456)) == .milliseconds(12))
    #expect(scheduler.tolerance(forPeriod: .microseconds(5)) == .milliseconds(1))
    #expect(scheduler.tolerance(forPeriod: .seconds(3_600)) == .milliseconds(100))
    #expect(scheduler.tolerance(forPeriod: .max) == .milliseconds(100))
    #expect(scheduler.tolerance(forPeriod: nil) == .milliseconds(100))
    // 1,000 ring sizes, each with its own period between 10 ms and 1 s: at most 100 classes.
    for step in 0..<1_000 {
      let period = Duration.milliseconds(10) + .microseconds(990 * step)
      let renderer = RecordingRenderer(display: RoundedDisplay.rounded(to: period))
      _ = scheduler.add(
        Countdown(end: .at(.seconds(3_600))), renderer: renderer.renderer,
        tolerance: scheduler.tolerance(forPeriod: period), onFinish: [], at: .at(.zero))
    }
    #expect(scheduler.classCount <= 100)
    #expect(scheduler.classCount >= 99)
  }
}
