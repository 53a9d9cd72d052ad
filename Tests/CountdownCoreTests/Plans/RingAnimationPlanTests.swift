import CountdownCore
import TestSupport
import Testing

/// `Countdown.ringAnimation(phases:ring:at:limit:)`: checked by sampling against the countdown itself,
/// its ring geometry and its phase display.
@Suite struct RingAnimationPlanTests {
  /// The circular timer of a card game: phase 0 for the first second, then one more each second.
  static let eightPhases = PhaseDisplay(
    initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
  /// A 48-point ring with a 4-point stroke at 3×: 415 visible steps.
  static let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)

  /// One attosecond.
  static let instantly = Duration(secondsComponent: 0, attosecondsComponent: 1)

  /// Checks `plan` against `countdown` at `samples` random instants in `from...through` and at every
  /// segment boundary (and just before it): the stroke end within one visible step of the geometry's,
  /// the phase exactly the display's.
  static func expectPlanMatchesSampling<Phases: CountdownDisplay>(
    _ plan: RingAnimationPlan<Phases.Value, TestInstant>,
    _ countdown: Countdown<TestInstant>,
    phases: Phases,
    ring: RingGeometry,
    through end: TestInstant,
    samples: Int,
    using generator: inout SeededGenerator,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let step = 1 / Double(ring.visibleSteps)
    var mismatches = 0
    func check(_ instant: TestInstant) {
      let truth = RingGeometry(
        progress: countdown.progress(at: instant) ?? 0, diameter: ring.diameter, lineWidth: ring.lineWidth,
        scale: ring.scale)
      let stroke = plan.strokeEnd(at: instant)
      let phase = phases.value(remaining: countdown.remaining(at: instant))
      guard abs(stroke - truth.strokeEnd) <= step * (1 + 1e-9), plan.phase(at: instant) == phase else {
        mismatches += 1
        if mismatches <= 3 {
          Issue.record(
            "at \(instant): plan \(stroke) \(plan.phase(at: instant)), truth \(truth.strokeEnd) \(phase)",
            sourceLocation: sourceLocation)
        }
        return
      }
      #expect(
        abs(plan.ring(at: instant).strokeEnd - truth.strokeEnd) <= step * (1 + 1e-9), sourceLocation: sourceLocation)
    }
    for segment in plan.segments {
      check(segment.start)
      check(segment.end)
      check(segment.end - instantly)
    }
    let span = plan.instant.duration(to: end)
    for _ in 0..<samples {
      check(plan.instant + span * Double.random(in: 0...1, using: &generator))
    }
    check(end)
    #expect(mismatches == 0, "\(mismatches) samples disagree", sourceLocation: sourceLocation)
  }

  @Test func theEightSecondTimerIsEightSegmentsOfOneSecond() {
    let start = TestInstant(.seconds(1_000))
    let turn = Countdown(duration: .seconds(8), startingAt: start)
    let plan = turn.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start)
    #expect(plan.segments.count == 8)
    for (index, segment) in plan.segments.enumerated() {
      #expect(segment.phase == index)
      #expect(segment.start == start + .seconds(index) && segment.duration == .seconds(1))
      #expect(segment.fromStrokeEnd == Double(8 - index) / 8 && segment.toStrokeEnd == Double(7 - index) / 8)
      #expect(segment.endsWith == (index == 7 ? .finish : .phaseChange))
    }
    #expect(plan.restingStrokeEnd == 0 && plan.restingPhase == 7 && plan.horizon == nil)
    #expect(plan.nextEvent(after: start)?.at == start + .seconds(1))
    #expect(plan.nextEvent(after: start + .seconds(7))?.events == .finish)
    #expect(plan.nextEvent(after: start + .seconds(8)) == nil)
    #expect(plan.stepInterval == .seconds(8) / 415)
    #expect(plan.holds(for: turn) && !plan.holds(for: turn.extended(by: .seconds(1))))
  }

  @Test func randomCountdownsMatchSampling() {
    let seed = SeededGenerator.testSeed()
    print("RingAnimationPlanTests.randomCountdownsMatchSampling seed \(seed) (replay with COUNTDOWN_TEST_SEED=\(seed))")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<200 {
      let now = TestInstant(generator.duration(milliseconds: -1_000_000...1_000_000))
      let total = generator.duration(milliseconds: 1...3_600_000)
      // Anything from overtime to more than the total left.
      let left = total * Double.random(in: -0.2...1.5, using: &generator)
      let countdown = Countdown(end: now + left, total: Bool.random(using: &generator) ? total : nil)
      // Thresholds anywhere from overtime to above the total, some equal values in a row.
      let thresholds = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
        PhaseDisplay<Int>.Phase(
          startsAt: total * Double.random(in: -0.3...1.3, using: &generator),
          value: Int.random(in: 0...4, using: &generator))
      }
      let phases = PhaseDisplay(initial: 9, phases: thresholds)
      let ring = RingGeometry(
        progress: 0, diameter: Double.random(in: 10...300, using: &generator),
        lineWidth: Double.random(in: 1...10, using: &generator), scale: Double.random(in: 1...3, using: &generator))
      let plan = countdown.ringAnimation(phases: phases, ring: ring, at: now)
      #expect(plan.horizon == nil)
      for (previous, next) in zip(plan.segments, plan.segments.dropFirst()) {
        #expect(previous.end == next.start && previous.toStrokeEnd == next.fromStrokeEnd)
        #expect(previous.endsWith.contains(.phaseChange) == (previous.phase != next.phase))
      }
      Self.expectPlanMatchesSampling(
        plan, countdown, phases: phases, ring: ring, through: now + max(left, .zero) + total * 0.5, samples: 200,
        using: &generator)
    }
  }

  /// Pauses, resumes, retargets and extensions at random instants: the plan made at each event is
  /// right until the next, and stops holding for the changed countdown.
  @Test func aNewPlanAtEachEventIsRightUntilTheNext() {
    let seed = SeededGenerator.testSeed()
    print("RingAnimationPlanTests.aNewPlanAtEachEventIsRightUntilTheNext seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    var now = TestInstant(.seconds(50))
    var countdown = Countdown(duration: .seconds(8), startingAt: now)
    var plan = countdown.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: now)
    var plans = 1
    for _ in 0..<300 {
      let next = now + generator.duration(milliseconds: 0...1_500)
      Self.expectPlanMatchesSampling(
        plan, countdown, phases: Self.eightPhases, ring: Self.ring, through: next, samples: 20, using: &generator)
      now = next
      let changed: Countdown<TestInstant>
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: changed = countdown.paused(at: now)
      case 1: changed = countdown.resumed(at: now)
      case 2: changed = countdown.retargeted(to: now + generator.duration(milliseconds: -2_000...9_000))
      default: changed = countdown.extended(by: generator.duration(milliseconds: -3_000...3_000))
      }
      #expect(plan.holds(for: changed) == (changed == countdown))
      if !plan.holds(for: changed) {
        countdown = changed
        plan = countdown.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: now)
        plans += 1
      }
    }
    #expect(plans > 100)
  }

  @Test func aPausedRingRests() {
    let start = TestInstant(.seconds(3))
    let paused = Countdown(duration: .seconds(8), startingAt: start).paused(at: start + .seconds(2))
    let plan = paused.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start + .seconds(5))
    #expect(plan.segments.isEmpty && plan.horizon == nil)
    #expect(plan.restingStrokeEnd == 0.75 && plan.restingPhase == 2)
    #expect(plan.strokeEnd(at: start + .seconds(100)) == 0.75 && plan.nextEvent(after: start) == nil)
  }

  @Test func aRingExtendedPastItsTotalStaysFullThenEmpties() {
    let start = TestInstant(.seconds(3))
    let countdown = Countdown(duration: .seconds(8), startingAt: start).extended(by: .seconds(4))
    let plan = countdown.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start)
    let first = try! #require(plan.segments.first)
    #expect(first.duration == .seconds(4) && first.fromStrokeEnd == 1 && first.toStrokeEnd == 1)
    #expect(first.endsWith == .ringStartsEmptying)
    #expect(plan.segments.count == 9)
  }

  @Test func overtimePhasesGoOnAfterTheFinish() {
    let start = TestInstant(.seconds(3))
    let countdown = Countdown(duration: .seconds(2), startingAt: start)
    let phases: PhaseDisplay<String> = .phases("calm", [.seconds(1): "hurry", .seconds(-3): "late"])
    let plan = countdown.ringAnimation(phases: phases, ring: Self.ring, at: start)
    #expect(plan.segments.map(\.phase) == ["calm", "hurry", "hurry"])
    #expect(plan.segments.map(\.endsWith) == [.phaseChange, .finish, .phaseChange])
    #expect(plan.segments.last?.fromStrokeEnd == 0 && plan.restingPhase == "late")
  }

  @Test func aDisplayThatChangesForeverIsCutAtTheLimit() {
    let seed = SeededGenerator.testSeed()
    print("RingAnimationPlanTests.aDisplayThatChangesForeverIsCutAtTheLimit seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    let start = TestInstant(.seconds(3))
    let countdown = Countdown(duration: .milliseconds(5_500), startingAt: start)
    let plan = countdown.ringAnimation(
      phases: RoundedDisplay.secondsWithOvertime, ring: Self.ring, at: start, limit: 10)
    #expect(plan.segments.count == 10)
    let horizon = try! #require(plan.horizon)
    #expect(horizon == plan.segments.last?.end)
    Self.expectPlanMatchesSampling(
      plan, countdown, phases: RoundedDisplay.secondsWithOvertime, ring: Self.ring, through: horizon, samples: 500,
      using: &generator)
  }

  @Test func changesThatShowTheSameAreNoBoundaries() {
    // A mapped display that maps everything to one value reports a change after 1,000 skipped ones.
    let start = TestInstant(.seconds(3))
    let countdown = Countdown(duration: .seconds(2_500), startingAt: start)
    let plan = countdown.ringAnimation(phases: RoundedDisplay.seconds.map { _ in 0 }, ring: Self.ring, at: start)
    #expect(plan.segments.count == 1 && plan.segments.first?.endsWith == .finish)
  }
}
