import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// `RingAnimationModel`: one plan for a whole turn however many phases it has, a new one exactly when
/// the countdown is changed, and the engine woken only at phase changes.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct RingAnimationModelTests {
  static let eightPhases = PhaseDisplay(
    initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
  static let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)

  /// Plans handed to `onPlan`, in order.
  final class Plans {
    var received: [RingAnimationPlan<Int, MediaTime>] = []
  }

  @Test func oneTurnIsOnePlanThoughTheEngineWakesAtEachPhase() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let plans = Plans()
    let turn = Countdown(duration: .seconds(8), startingAt: clock.now)
    let model = RingAnimationModel(
      engine: engine, countdown: turn, phases: Self.eightPhases, ring: Self.ring, mediaClock: .manual(clock)
    ) { plans.received.append($0) }
    #expect(plans.received.count == 1 && model.plan.segments.count == 8)
    let observed = ObservationCounter()
    trackEveryPublication(observed) { _ = model.plan }
    for _ in 0..<1_000 {
      clock.advance(by: .milliseconds(10))
      engine._serveDue()
      let truth = turn.remaining(at: clock.now)
      #expect(model.plan.phase(at: clock.now) == Self.eightPhases.value(remaining: truth))
    }
    #expect(plans.received.count == 1 && observed.value == 0)
    // The engine called the model with its first snapshot, at the seven phase changes and at the
    // finish, not at the ring's 415 visible steps.
    #expect(model.deliveryCount == 1 + Self.eightPhases.phases.count + 1)
  }

  @Test func eachChangeToTheCountdownIsOneNewPlanHoweverItWasMade() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let plans = Plans()
    let model = RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: clock.now), phases: Self.eightPhases,
      ring: Self.ring, mediaClock: .manual(clock)
    ) { plans.received.append($0) }
    clock.advance(by: .milliseconds(2_500))
    engine._serveDue()
    model.handle.pause()
    engine._serveDue()
    #expect(plans.received.count == 2 && model.plan.segments.isEmpty && model.plan.restingPhase == 2)
    clock.advance(by: .seconds(5))
    engine._serveDue()
    model.handle.resume()
    engine._serveDue()
    #expect(plans.received.count == 3 && model.plan.segments.count == 6)
    // An extension that moves no phase boundary past the present still changes every later instant:
    // the engine reports it although the phase shown stays the same.
    let handle = model.handle
    let elsewhere = Thread { handle.extend(by: .milliseconds(100)) }
    elsewhere.start()
    while handle.countdown?.remaining(at: clock.now) != .milliseconds(5_600) { sched_yield() }
    engine._serveDue()
    #expect(plans.received.count == 4)
    model.handle.retarget(to: clock.now + .seconds(3))
    engine._serveDue()
    #expect(plans.received.count == 5 && model.plan.segments.first?.phase == 5)
    // Nothing changed: nothing published.
    clock.advance(by: .milliseconds(10))
    engine._serveDue()
    #expect(plans.received.count == 5)
    #expect(model.plan.holds(for: try #require(model.handle.countdown)))
  }

  @Test func releasingTheModelCancelsItsCountdown() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var finished = 0
    var model: RingAnimationModel<PhaseDisplay<Int>, ManualClock>? = RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: clock.now), phases: Self.eightPhases,
      ring: Self.ring, mediaClock: .manual(clock), onFinish: { finished += 1 })
    engine._serveDue()
    #expect(engine.count == 1 && model != nil)
    model = nil
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(engine.count == 0 && finished == 0)
  }
}
