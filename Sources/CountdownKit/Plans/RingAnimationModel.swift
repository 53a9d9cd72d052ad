#if canImport(Observation)
  public import Foundation
  public import Observation

  /// An observable ring animation for a countdown on an engine: the current `RingAnimationPlan`, and a
  /// new one only when the old one stops being true.
  ///
  /// The model adds its countdown to the engine with the phase display, so the engine wakes only at
  /// phase changes and the finish, never per visible step of the ring; there it checks whether the
  /// countdown is still the one the plan was made from, and publishes nothing when it is (the plan
  /// foresaw the change). A pause, resume, retarget or extension made through the model gives a new plan
  /// at once.
  ///
  /// ```swift
  /// let size = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
  /// let ring = RingAnimationModel(engine: engine, countdown: turn, phases: circularTimer, ring: size) { plan in
  ///   ringView.animate(plan)
  /// }
  /// ```
  ///
  /// Change the countdown through the model. The engine tells the model of every change that moves the
  /// phase or the paused or finished flag, so a change made another way is noticed then; a retarget or
  /// extension made another way that moves none of them is not (the engine delivers nothing for it):
  /// call ``refresh()`` after it.
  ///
  /// The countdown lives as long as the model: releasing the model cancels it.
  @MainActor @Observable
  public final class RingAnimationModel<Phases: CountdownDisplay, C: Clock> where C.Duration == Duration {
    /// What the model publishes.
    public typealias Plan = RingAnimationPlan<Phases.Value, C.Instant>

    /// The plan for the countdown as it is; replaced only when it stops being true.
    public private(set) var plan: Plan

    @ObservationIgnored private let engine: CountdownEngine<C>
    @ObservationIgnored private let phases: Phases
    @ObservationIgnored private let ring: RingGeometry
    @ObservationIgnored private let onPlan: (@MainActor (Plan) -> Void)?
    @ObservationIgnored private var handle: CountdownHandle<C>?
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
      self.engine = engine
      self.phases = phases
      self.ring = ring
      self.onPlan = onPlan
      let relay = SnapshotRelay<CountdownSnapshot<Phases.Value, C.Instant>>()
      let handle = engine.add(countdown, display: phases, onChange: { relay.deliver($0) }, onFinish: onFinish)
      plan = (handle.countdown ?? countdown).ringAnimation(phases: phases, ring: ring, at: engine.now)
      self.handle = handle
      relay.receiver = { [weak self] _ in
        guard let self else { return }
        deliveryCount += 1
        refresh()
      }
      onPlan?(plan)
    }

    deinit {
      handle?.cancel()
    }

    /// The countdown as the engine has it now; `nil` once cancelled or over.
    public var countdown: Countdown<C.Instant>? { handle?.countdown }

    /// Freezes the remaining time; a new plan (the ring at rest).
    public func pause() {
      handle?.pause()
      refresh()
    }

    /// Runs again from where it was paused; a new plan.
    public func resume() {
      handle?.resume()
      refresh()
    }

    /// Gives the countdown `amount` more time (less if negative); a new plan.
    public func extend(by amount: Duration) {
      handle?.extend(by: amount)
      refresh()
    }

    /// Counts to a new end instant; a new plan.
    public func retarget(to end: C.Instant) {
      handle?.retarget(to: end)
      refresh()
    }

    /// Counts to a wall-clock date, followed when the wall clock changes; a new plan.
    ///
    /// - Throws: `TimelineError` for a date that is not finite or absurdly far away.
    public func retarget(to date: Date) throws {
      try handle?.retarget(to: date)
      refresh()
    }

    /// Stops the countdown: no more plans, and its completion will not fire. The last plan stays.
    public func cancel() {
      handle?.cancel()
      handle = nil
    }

    /// Makes a new plan if the countdown is no longer the one the current plan was made from (after a
    /// change made without the model, which the engine may not report); otherwise does nothing.
    public func refresh() {
      guard let countdown = handle?.countdown, !plan.holds(for: countdown) else { return }
      plan = countdown.ringAnimation(phases: phases, ring: ring, at: engine.now)
      onPlan?(plan)
    }
  }
#endif
