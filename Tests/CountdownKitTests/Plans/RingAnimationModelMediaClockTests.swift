import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// `RingAnimationModel` on the host's animation clock: plans carried onto media time, carried again
/// after the device sleeps (media time stops, the engine's clock goes on), the pause state, the moving
/// state and the ring's scale.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct RingAnimationModelMediaClockTests {
  static let eightPhases = RingAnimationModelTests.eightPhases
  static let ring = RingAnimationModelTests.ring

  /// Media plans handed to `onPlan`, in order.
  final class Plans {
    var received: [RingAnimationPlan<Int, MediaTime>] = []
  }

  /// A model of an 8-second turn that starts now, on a manual engine and its media clock.
  static func makeTurn() -> (
    RingAnimationModel<PhaseDisplay<Int>, ManualClock>, CountdownEngine<ManualClock>, ManualClock, Plans,
    Countdown<ManualClock.Instant>
  ) {
    let (engine, clock) = makeManualEngine()
    let plans = Plans()
    let turn = Countdown(duration: .seconds(8), startingAt: clock.now)
    let model = RingAnimationModel(
      engine: engine, countdown: turn, phases: eightPhases, ring: ring, mediaClock: .manual(clock)
    ) { plans.received.append($0) }
    return (model, engine, clock, plans, turn)
  }

  /// How far the media plan's stroke end at the media clock's now is from the countdown's at the engine's
  /// now, in visible steps of the ring.
  static func lag(
    of plan: RingAnimationPlan<Int, MediaTime>, _ turn: Countdown<ManualClock.Instant>, _ clock: ManualClock
  ) -> Double {
    let truth = turn.progress(at: clock.now) ?? 0
    return abs(plan.strokeEnd(at: clock.mediaTime) - truth) * Double(ring.visibleSteps)
  }

  @Test func theMediaPlanIsThePlanAtTheSameDistanceFromNowOnTheMediaClock() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    clock.advanceAsleep(by: .seconds(100))  // the two clocks 100 s apart before the model is made
    let plans = Plans()
    let model = RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: clock.now), phases: Self.eightPhases,
      ring: Self.ring, mediaClock: .manual(clock)
    ) { plans.received.append($0) }
    #expect(plans.received == [model.mediaPlan] && model.mediaPlan.instant == clock.mediaTime)
    #expect(model.mediaPlan.segments.first?.start == clock.mediaTime)
    #expect(model.mediaPlan.segments.map(\.duration) == model.plan.segments.map(\.duration))
    #expect(model.mediaPlan.segments.map(\.phase) == model.plan.segments.map(\.phase))
    #expect(model.mediaPlan.countdown.end == clock.mediaTime + .seconds(8))
  }

  @Test func aSleepIsNoticedByCheckingAndThePlanCarriedAcross() {
    let (model, engine, clock, plans, turn) = Self.makeTurn()
    defer { engine.shutdown() }
    clock.advance(by: .milliseconds(2_500))
    engine.serveDue()
    #expect(plans.received.count == 1 && Self.lag(of: model.mediaPlan, turn, clock) <= 1)
    // Awake, the clocks keep their distance: nothing to carry.
    #expect(!model.checkMediaClock() && plans.received.count == 1)

    // The device sleeps 3.2 s: the engine's clock counts it, Core Animation's does not.
    let enginePlan = model.plan
    clock.advanceAsleep(by: .milliseconds(3_200))
    // The plan made before the sleep, read on the media clock, shows the ring 3.2 s behind: the lag
    // an app would see after a wake.
    #expect(Self.lag(of: model.mediaPlan, turn, clock) > 150)
    #expect(model.checkMediaClock())
    #expect(plans.received.count == 2 && plans.received.last == model.mediaPlan)
    #expect(Self.lag(of: model.mediaPlan, turn, clock) <= 1)
    #expect(
      model.mediaPlan.phase(at: clock.mediaTime) == Self.eightPhases.value(remaining: turn.remaining(at: clock.now)))
    // The countdown did not change: the plan on the engine's clock is the same one.
    #expect(model.plan == enginePlan)
    #expect(!model.checkMediaClock() && plans.received.count == 2)
  }

  @Test func aSleepIsNoticedAtTheEnginesNextCall() {
    let (model, engine, clock, plans, turn) = Self.makeTurn()
    defer { engine.shutdown() }
    clock.advance(by: .milliseconds(500))
    engine.serveDue()
    // Asleep through a phase change: the engine wakes the model for it once the device is awake.
    clock.advanceAsleep(by: .seconds(1))
    clock.advance(by: .milliseconds(10))
    engine.serveDue()
    #expect(plans.received.count == 2)
    #expect(Self.lag(of: model.mediaPlan, turn, clock) <= 1)
    // Sampled on the media clock from here to the end, the ring is the countdown's.
    for _ in 0..<700 {
      clock.advance(by: .milliseconds(10))
      engine.serveDue()
      #expect(Self.lag(of: model.mediaPlan, turn, clock) <= 1)
      #expect(
        model.mediaPlan.phase(at: clock.mediaTime) == Self.eightPhases.value(remaining: turn.remaining(at: clock.now)))
      // The dot is where the countdown's own ring puts it, within a visible step of the arc.
      let truth = RingGeometry(progress: turn.progress(at: clock.now) ?? 0, diameter: 48, lineWidth: 4, scale: 3)
      let dot = model.dotPosition(at: clock.mediaTime)
      #expect(hypot(dot.x - truth.dotPosition.x, dot.y - truth.dotPosition.y) <= 2 * .pi * truth.radius / 415 + 1e-9)
    }
    #expect(plans.received.count == 2)
  }

  @Test func aSleepShorterThanTheToleranceIsNotCarried() {
    let (model, engine, clock, plans, _) = Self.makeTurn()
    defer { engine.shutdown() }
    clock.advanceAsleep(by: RingAnimationModel<PhaseDisplay<Int>, ManualClock>.mediaClockTolerance)
    #expect(!model.checkMediaClock())
    clock.advanceAsleep(by: .milliseconds(1))
    #expect(model.checkMediaClock() && plans.received.count == 2)
  }

  @Test func isPausedAndIsMovingFollowTheCountdown() {
    let (model, engine, clock, _, _) = Self.makeTurn()
    defer { engine.shutdown() }
    let observed = ObservationCounter()
    trackEveryPublication(observed) { _ = model.isPaused }
    #expect(!model.isPaused && model.isMoving)
    clock.advance(by: .seconds(1))
    engine.serveDue()
    model.handle.pause()
    engine.serveDue()
    #expect(model.isPaused && !model.isMoving && observed.value == 1)
    // While paused, the dot rests where the arc ends.
    let dot = model.dotPosition(at: clock.mediaTime.advanced(by: .seconds(3)))
    #expect(dot == model.mediaPlan.ring(at: clock.mediaTime).dotPosition)
    #expect(dot == RingGeometry(progress: 7.0 / 8, diameter: 48, lineWidth: 4, scale: 3).dotPosition)
    clock.advance(by: .seconds(5))
    model.handle.resume()
    engine.serveDue()
    #expect(!model.isPaused && model.isMoving && observed.value == 2)
    clock.advance(by: .seconds(7))
    engine.serveDue()
    // Finished: the ring rests empty, and says so.
    #expect(!model.isPaused && !model.isMoving)
  }

  @Test func theRingsScaleComesFromTheHostAndMakesANewPlan() {
    let (model, engine, clock, plans, _) = Self.makeTurn()
    defer { engine.shutdown() }
    clock.advance(by: .seconds(2))
    engine.serveDue()
    model.ring = RingGeometry(progress: 0.3, diameter: 48, lineWidth: 4, scale: 2)
    #expect(plans.received.count == 2 && model.plan.ring.scale == 2 && model.mediaPlan.ring.scale == 2)
    #expect(model.plan.ring.visibleSteps == RingGeometry.visibleSteps(diameter: 48, lineWidth: 4, scale: 2))
    #expect(model.plan.instant == clock.now && model.plan.segments.count == 6)
    // The same size again (its progress is not used): nothing new.
    model.ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 2)
    #expect(plans.received.count == 2 && model.ring.scale == 2)
  }

  @Test func aPlanCutAtItsSegmentLimitIsRenewedAtItsHorizon() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    // A phase a second for 100 s: more segments than a plan lists (64).
    let hundred = PhaseDisplay(initial: 0, phases: (1...99).map { .init(startsAt: .seconds(100 - $0), value: $0) })
    let turn = Countdown(duration: .seconds(100), startingAt: clock.now)
    let model = RingAnimationModel(
      engine: engine, countdown: turn, phases: hundred, ring: Self.ring, mediaClock: .manual(clock))
    #expect(try #require(model.plan.horizon) == clock.now + .seconds(64))
    for _ in 0..<990 {
      clock.advance(by: .milliseconds(100))
      engine.serveDue()
      #expect(model.plan.phase(at: clock.now) == hundred.value(remaining: turn.remaining(at: clock.now)))
      #expect(model.mediaPlan.phase(at: clock.mediaTime) == hundred.value(remaining: turn.remaining(at: clock.now)))
    }
    #expect(model.plan.horizon == nil)
  }
}
