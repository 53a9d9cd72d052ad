#if canImport(Observation)
  import Foundation
  public import Observation

  /// An observable ring animation for a countdown on an engine: the current `RingAnimationPlan`, and a
  /// new one only when the old one stops being true.
  ///
  /// A plan lists every segment of the ring until the countdown can change no more by itself: phase
  /// changes and the finish are inside it. The model adds its countdown with the phase display and
  /// ``SnapshotDelivery/whenCountdownChanges``, so the engine wakes it at phase changes, at the finish
  /// and at every change made to the countdown, however it was made (through ``handle``, a date moved
  /// by the wall clock); it publishes a new plan only when the countdown is no longer the one the plan
  /// was made from.
  ///
  /// ```swift
  /// let size = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
  /// let ring = RingAnimationModel(engine: engine, countdown: turn, phases: circularTimer, ring: size) { plan in
  ///   ringView.animate(plan)
  /// }
  /// ```
  ///
  /// The countdown lives as long as the model: releasing the model cancels it. Change it through its
  /// ``handle``.
  @MainActor @Observable
  public final class RingAnimationModel<Phases: CountdownDisplay, C: Clock> where C.Duration == Duration {
    /// What the model publishes.
    public typealias Plan = RingAnimationPlan<Phases.Value, C.Instant>

    /// The plan for the countdown as it is; replaced only when it stops being true.
    public private(set) var plan: Plan

    /// The countdown's handle: pause, resume, retarget, extend or cancel it; the model publishes the
    /// plan each change makes.
    @ObservationIgnored public let handle: CountdownHandle<C>
    @ObservationIgnored private let phases: Phases
    @ObservationIgnored private let ring: RingGeometry
    @ObservationIgnored private let total: Duration?
    @ObservationIgnored private let onPlan: (@MainActor (Plan) -> Void)?
    /// How many snapshots the engine delivered to the model: for tests of how often it wakes.
    @ObservationIgnored package private(set) var deliveryCount = 0

    /// A ring animation of `countdown` on `engine`, coloured by `phases`.
    ///
    /// The first plan is made at once (and handed to `onPlan`), so ``plan`` is there before the engine's
    /// first delivery.
    ///
    /// - Parameters:
    ///   - engine: The app's engine.
    ///   - countdown: The countdown to run.
    ///   - phases: What colours the ring; the engine wakes when its value changes.
    ///   - ring: The ring's size (its `progress` is not used).
    ///   - onPlan: Called on the main actor with every plan, the first one included: start the
    ///     animations there.
    ///   - onFinish: Called once on the main actor when the countdown reaches zero.
    public init(
      engine: CountdownEngine<C>,
      countdown: Countdown<C.Instant>,
      phases: Phases,
      ring: RingGeometry,
      onPlan: (@MainActor (Plan) -> Void)? = nil,
      onFinish: (@MainActor @Sendable () -> Void)? = nil
    ) {
      self.phases = phases
      self.ring = ring
      self.onPlan = onPlan
      total = countdown.total
      let relay = SnapshotRelay<CountdownSnapshot<Phases.Value, C.Instant>>()
      handle = engine.add(
        countdown, display: phases, delivery: .whenCountdownChanges, onChange: { relay.deliver($0) },
        onFinish: onFinish)
      plan = countdown.ringAnimation(phases: phases, ring: ring, at: engine.now)
      relay.receiver = { [weak self] snapshot in
        guard let self else { return }
        deliveryCount += 1
        show(snapshot)
      }
      onPlan?(plan)
    }

    deinit {
      handle.cancel()
    }

    /// Makes a new plan if `snapshot` shows a countdown other than the one the current plan was made
    /// from.
    private func show(_ snapshot: CountdownSnapshot<Phases.Value, C.Instant>) {
      let end = snapshot.instant.advanced(by: snapshot.remaining)
      var countdown = Countdown(end: end, total: total)
      if snapshot.isPaused { countdown = countdown.paused(at: snapshot.instant) }
      guard !plan.holds(for: countdown) else { return }
      plan = countdown.ringAnimation(phases: phases, ring: ring, at: snapshot.instant)
      onPlan?(plan)
    }
  }
#endif
