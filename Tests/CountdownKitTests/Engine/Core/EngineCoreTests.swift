import CountdownKit
import CountdownTesting
import Testing

/// Single behaviours of the engine's core, driven with plain ticks.
@Suite struct EngineCoreTests {
  @Test func aRowThatSettledAsItWasAddedIsReleasedAndItsNumberNamesNothingAfterwards() {
    var harness = CoreHarness()
    let seconds = harness.addClass(RoundedDisplay.seconds)
    let now = ticks(.seconds(10))
    // Already finished, and a seconds display never changes again: a stream's row goes at once.
    let settled = harness.add(
      end: ticks(.seconds(5)), displayClass: seconds, releasesWhenSettled: true, at: now)
    let generation = harness.core.rows[settled].generation
    #expect(!harness.core.rows.isCurrent(settled, generation: generation))
    #expect(harness.core.rows.count == 0)
    #expect(harness.changes.count == 1, "the final snapshot is delivered before the row goes")
    let next = harness.add(end: ticks(.seconds(60)), at: now)
    #expect(next == settled, "the row is reused")
    #expect(!harness.core.rows.isCurrent(settled, generation: generation), "a stale reference never names it")
  }

  @Test func aStaleItemOfARemovedRowNeverCountsForTheOneThatReusesIt() {
    var harness = CoreHarness()
    let seconds = harness.addClass(RoundedDisplay.seconds)
    // Due at 0.5 s, then removed: its queued item stays behind until it surfaces.
    let first = harness.add(end: ticks(.milliseconds(500)), at: 0)
    harness.remove(first, at: 0)
    // Takes the same row; its first change is at 10 s minus 9 s = 1 s.
    let second = harness.add(end: ticks(.seconds(10)), displayClass: seconds, at: 0)
    #expect(second == first)
    #expect(harness.nextWake() == ticks(servedAt(.seconds(1))), "the removed row's item must stay dead")
    harness.serve(at: ticks(.milliseconds(600)))
    #expect(harness.changes.count == 1)
    #expect(harness.completions(of: second).isEmpty)
  }

  @Test func coalescesChangesWithinTheToleranceOfEachLane() {
    var harness = CoreHarness()
    let seconds = harness.addClass(RoundedDisplay.seconds)
    let quarters = harness.addClass(RoundedDisplay.rounded(to: .milliseconds(250)))
    let slow = harness.add(end: ticks(.milliseconds(10_500)), displayClass: seconds, at: 0)
    let fast = harness.add(end: ticks(.milliseconds(10_010)), displayClass: quarters, at: 0)
    // Quarters change at 10 ms, served at the end of its 23.4375 ms slot (15/16 of 25 ms); seconds
    // at 500 ms, served at the end of its 93.75 ms slot.
    let quarterTolerance = Duration.milliseconds(25)
    #expect(servedAt(.milliseconds(10), tolerance: quarterTolerance) == .microseconds(23_437.5))
    #expect(harness.nextWake() == ticks(.microseconds(23_437.5)))
    harness.serve(at: ticks(.microseconds(23_437.5)))
    #expect(harness.changes(of: harness.sink(of: fast)).map(\.tick) == [0, ticks(.microseconds(23_437.5))])
    #expect(harness.changes(of: harness.sink(of: slow)).count == 1)
    // Next quarter at 260 ms.
    #expect(harness.nextWake() == ticks(servedAt(.milliseconds(260), tolerance: quarterTolerance)))
    harness.serve(at: ticks(servedAt(.milliseconds(260), tolerance: quarterTolerance)))
    #expect(harness.changes(of: harness.sink(of: fast)).count == 3)
    // The quarter at 510 ms (served at 515.625 ms) comes before the seconds change at 500 ms, whose
    // lane has a wider slot (served at 562.5 ms).
    #expect(servedAt(.milliseconds(500)) == .microseconds(562_500))
    #expect(harness.nextWake() == ticks(servedAt(.milliseconds(510), tolerance: quarterTolerance)))
  }

  @Test func aCompletionFiresOnceAndAgainOnlyAfterTheEndMovedIntoTheFuture() {
    var harness = CoreHarness()
    let row = harness.add(end: ticks(.seconds(1)), displayClass: 0, at: 0)
    #expect(harness.nextWake() == ticks(servedAt(.seconds(1))))
    harness.serve(at: ticks(.milliseconds(1_100)))
    #expect(harness.completions(of: row) == [ticks(.milliseconds(1_100))])
    #expect(harness.nextWake() == nil)
    // Moving the end earlier, or pausing, or extending within the past, does not fire again.
    let two = ticks(.seconds(2))
    harness.change(row, .extend(ticks(.milliseconds(-500))), at: two)
    harness.change(row, .pause, at: two)
    harness.change(row, .resume, at: two)
    harness.serve(at: ticks(.seconds(3)))
    #expect(harness.completions(of: row).count == 1)
    // Moving it into the future re-arms it.
    harness.change(row, .retarget(end: ticks(.seconds(4)), target: nil), at: ticks(.seconds(3)))
    harness.serve(at: ticks(.seconds(4)))
    #expect(harness.completions(of: row).count == 2)
  }

  @Test func aDisplayThatBreaksTheNextChangeContractCannotMakeTheCoreSpin() {
    var harness = CoreHarness()
    let display = StuckOnWholeSecondsDisplay()
    let stuck = harness.addClass(display)
    let row = harness.add(
      end: ticks(.seconds(3)), displayClass: stuck, at: 0)
    // Served exactly on whole seconds (a manual clock can do that), where the display misbehaves.
    for second in 1...3 { harness.serve(at: ticks(.seconds(Int64(second)))) }
    var now = ticks(.seconds(3))
    var wakes = 0
    while let wake = harness.nextWake(), wakes < 1_000 {
      #expect(wake > now)
      now = wake
      harness.serve(at: now)
      wakes += 1
    }
    #expect(wakes < 1_000)
    // The display still reaches its final value: the core looks again a tolerance later.
    #expect(harness.changes(of: harness.sink(of: row)).last?.change.value == 0)
    #expect(harness.changes(of: harness.sink(of: row)).last?.change.isFinished == true)
  }

  @Test func tolerancesAreWholeMillisecondsSoThatDisplaysShareLanes() {
    var harness = CoreHarness()
    #expect(harness.core.tolerance(forPeriod: .microseconds(123_456)) == ticks(.milliseconds(12)))
    #expect(harness.core.tolerance(forPeriod: .microseconds(5)) == ticks(.milliseconds(1)))
    #expect(harness.core.tolerance(forPeriod: .seconds(3_600)) == ticks(.milliseconds(100)))
    #expect(harness.core.tolerance(forPeriod: .seconds(Int64.max)) == ticks(.milliseconds(100)))
    #expect(harness.core.tolerance(forPeriod: nil) == ticks(.milliseconds(100)))
    // 1,000 ring sizes, each with its own period between 10 ms and 1 s: at most 100 lanes.
    for step in 0..<1_000 {
      let period = Duration.milliseconds(10) + .microseconds(990 * step)
      let displayClass = harness.addClass(RoundedDisplay.rounded(to: period))
      harness.add(end: ticks(.seconds(3_600)), displayClass: displayClass, at: 0)
    }
    #expect(harness.core.schedule.laneCount <= 100)
    #expect(harness.core.schedule.laneCount >= 99)
  }

  @Test func absurdEndsAndExtensionsSaturateInsteadOfTrapping() {
    var harness = CoreHarness()
    let seconds = harness.addClass(RoundedDisplay.seconds)
    let row = harness.add(end: Ticks.max, displayClass: seconds, at: 0)
    harness.change(row, .extend(Ticks.max), at: 0)
    harness.change(row, .extend(Ticks.max), at: 0)
    #expect(harness.core.rows[row].end == Ticks.max)
    harness.change(row, .extend(Ticks.min), at: 0)
    harness.change(row, .extend(Ticks.min), at: 0)
    #expect(harness.core.rows[row].end == Ticks.min)
    harness.serve(at: ticks(.seconds(1)))
    #expect(harness.completions(of: row).count == 1)
    let never = harness.add(end: Ticks.max, at: 0)
    #expect(harness.nextWake() == nil, "an end that far never comes: nothing to wake for")
    harness.change(never, .pause, at: ticks(.seconds(1)))
    harness.change(never, .extend(Ticks.max), at: ticks(.seconds(2)))
    harness.change(never, .resume, at: ticks(.seconds(3)))
    #expect(harness.core.rows.remaining(never, at: ticks(.seconds(3))) == Ticks.max - ticks(.seconds(3)))
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
}
