#if canImport(Observation)
  import Foundation
  public import Observation

  /// An observable ring animation for a countdown on an engine: the current `RingAnimationPlan`, on the
  /// engine's clock and on the host's animation clock, and a new one only when the old one stops being
  /// true or the two clocks drift apart (the device slept).
  ///
  /// A plan lists every segment of the ring until the countdown can change no more by itself: phase
  /// changes and the finish are inside it. The model adds its countdown with the phase display and
  /// ``SnapshotDelivery/whenCountdownChanges``, so the engine wakes it at phase changes, at the finish
  /// and at every change made to the countdown, however it was made (through ``handle``, a date moved
  /// by the wall clock); it publishes a new plan only when the countdown is no longer the one the plan
  /// was made from.
  ///
  /// Animations run on the host's clock (Core Animation's `CACurrentMediaTime()`), which stops while the
  /// device sleeps; the engine's `ContinuousClock` does not. ``mediaPlan`` is the plan carried onto the
  /// host's clock; after a sleep the same instant is further away on one clock than on the other, so
  /// the model carries its plan across again when it notices: at each of the engine's calls, and when
  /// the app calls ``checkMediaClock()`` (do it when the app becomes active again).
  ///
  /// ```swift
  /// let ring = RingAnimationModel(
  ///   engine: engine, countdown: turn, phases: circularTimer,
  ///   ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: displayScale),
  ///   mediaClock: MediaClock(seconds: CACurrentMediaTime)
  /// ) { plan in
  ///   ringView.animate(plan)
  /// }
  /// ```
  ///
  /// The countdown lives as long as the model: releasing the model cancels it. Change it through its
  /// ``handle``.
  @MainActor @Observable
  public final class RingAnimationModel<Phases: CountdownDisplay, C: Clock> where C.Duration == Duration {
    /// A plan on the engine's clock.
    public typealias Plan = RingAnimationPlan<Phases.Value, C.Instant>
    /// A plan on the host's animation clock.
    public typealias MediaPlan = RingAnimationPlan<Phases.Value, MediaTime>

    /// How far the two clocks may drift apart before the plan is carried across again: less than a
    /// frame at 120 Hz, and far above the few microseconds between two reads of the clocks.
    public static var mediaClockTolerance: Duration { .milliseconds(5) }

    /// The plan for the countdown as it is, on the engine's clock; replaced only when it stops being
    /// true.
    public private(set) var plan: Plan

    /// ``plan`` on the host's animation clock (``mediaClock``): what Core Animation, SwiftUI animations
    /// and display links run on. Replaced with every new plan, and when the clocks drifted apart.
    public private(set) var mediaPlan: MediaPlan

    /// Whether the ring moves or changes colour by itself from now on: false while paused, and once the
    /// plan has run out (the finish, with no phase after it). Pause a display link or a
    /// `TimelineView(.animation(paused:))` while it is false.
    public private(set) var isMoving: Bool

    /// Whether the countdown is paused (as the current ``plan`` shows it).
    public var isPaused: Bool { plan.countdown.isPaused }

    /// The ring's size and its display's scale (its `progress` is not used); setting it makes a new
    /// plan. Take the scale from the environment (SwiftUI's `displayScale`, UIKit's
    /// `traitCollection.displayScale`): it sets how finely `RingAnimationPlan.ring(at:)` rounds and
    /// `RingAnimationPlan.stepInterval`.
    public var ring: RingGeometry {
      get { size }
      set {
        let newSize = Self.size(of: newValue)
        guard newSize != size else { return }
        size = newSize
        makePlan(for: published.plan.countdown, at: engine.now)
      }
    }

    /// The countdown's handle: pause, resume, retarget, extend or cancel it; the model publishes the
    /// plan each change makes.
    @ObservationIgnored public let handle: CountdownHandle<C>
    /// The host's animation clock, which ``mediaPlan`` is on.
    @ObservationIgnored public let mediaClock: MediaClock
    @ObservationIgnored private var size: RingGeometry
    /// ``plan``, ``mediaPlan`` and ``isMoving`` as last published, read here without going through
    /// observation: the engine calls the model at every phase change, and each observed read or write
    /// of a property of a generic class builds its key path at run time.
    @ObservationIgnored private var published: Published
    @ObservationIgnored private let engine: CountdownEngine<C>
    @ObservationIgnored private let phases: Phases
    @ObservationIgnored private let total: Duration?
    @ObservationIgnored private let onPlan: (@MainActor (MediaPlan) -> Void)?
    /// The two clocks read together when ``mediaPlan`` was carried across.
    @ObservationIgnored private var anchor: (engine: C.Instant, media: MediaTime)
    /// How many snapshots the engine delivered to the model: for tests of how often it wakes.
    @ObservationIgnored package private(set) var deliveryCount = 0

    /// A ring animation of `countdown` on `engine`, coloured by `phases`, handed over on `mediaClock`.
    ///
    /// The first plan is made at once (and handed to `onPlan`), so ``plan`` and ``mediaPlan`` are there
    /// before the engine's first delivery.
    ///
    /// - Parameters:
    ///   - engine: The app's engine.
    ///   - countdown: The countdown to run.
    ///   - phases: What colours the ring; the engine wakes when its value changes.
    ///   - ring: The ring's size and scale (its `progress` is not used); see ``ring``.
    ///   - mediaClock: The host's animation clock: `MediaClock(seconds: CACurrentMediaTime)`.
    ///   - onPlan: Called on the main actor with every plan on the host's clock, the first one included,
    ///     and again when the plan is carried across after a sleep: start the animations there.
    ///   - onFinish: Called once on the main actor when the countdown reaches zero.
    public init(
      engine: CountdownEngine<C>,
      countdown: Countdown<C.Instant>,
      phases: Phases,
      ring: RingGeometry,
      mediaClock: MediaClock,
      onPlan: (@MainActor (MediaPlan) -> Void)? = nil,
      onFinish: (@MainActor @Sendable () -> Void)? = nil
    ) {
      self.engine = engine
      self.phases = phases
      self.mediaClock = mediaClock
      self.onPlan = onPlan
      let size = Self.size(of: ring)
      self.size = size
      total = countdown.total
      let relay = SnapshotRelay<CountdownSnapshot<Phases.Value, C.Instant>>()
      handle = engine.add(
        countdown, display: phases, delivery: .whenCountdownChanges, onChange: { relay.deliver($0) },
        onFinish: onFinish)
      let clocks = Self.readClocks(engine, mediaClock)
      let plan = countdown.ringAnimation(phases: phases, ring: size, at: clocks.engine)
      let published = Published(
        plan: plan, mediaPlan: Self.carry(plan, by: clocks), isMoving: plan.nextEvent(after: clocks.engine) != nil)
      self.plan = published.plan
      mediaPlan = published.mediaPlan
      isMoving = published.isMoving
      self.published = published
      anchor = clocks
      relay.receiver = { [weak self] snapshot in
        guard let self else { return }
        deliveryCount += 1
        show(snapshot)
      }
      onPlan?(published.mediaPlan)
    }

    deinit {
      handle.cancel()
    }

    /// Where the dot at the ring's moving end is at `time` on the host's clock, in the ring's coordinates
    /// (points from the top-left corner of its square, `y` growing downwards): on the drawn arc's end,
    /// as `RingGeometry.dotPosition` puts it. A display link passes its `targetTimestamp`.
    public func dotPosition(at time: MediaTime) -> RingGeometry.Point {
      published.mediaPlan.dotPosition(at: time)
    }

    /// Reads the host's clock beside the engine's and, if they drifted apart by more than
    /// ``mediaClockTolerance`` since ``mediaPlan`` was carried across (the device slept), carries the
    /// plan across again, publishes it and hands it to `onPlan`.
    ///
    /// The model checks at each of the engine's calls; call this too when the app becomes active again
    /// (`scenePhase` turning `.active`, `UIApplication.didBecomeActiveNotification`, AppKit's
    /// `NSWorkspace.didWakeNotification`), so that a ring whose next phase change is far away does not
    /// lag until then.
    ///
    /// - Returns: Whether the plan was carried across again.
    @discardableResult
    public func checkMediaClock() -> Bool {
      let clocks = Self.readClocks(engine, mediaClock)
      guard drift(at: clocks) > Self.mediaClockTolerance else { return false }
      carryPlan(by: clocks)
      return true
    }

    /// Makes a new plan if `snapshot` shows a countdown other than the one the current plan was made
    /// from, or if the current one was cut at its segment limit and has reached its horizon; carries the
    /// plan across again if the clocks drifted apart.
    private func show(_ snapshot: CountdownSnapshot<Phases.Value, C.Instant>) {
      let end = snapshot.instant.advanced(by: snapshot.remaining)
      var countdown = Countdown(end: end, total: total)
      if snapshot.isPaused { countdown = countdown.paused(at: snapshot.instant) }
      let current = published.plan
      let pastHorizon = current.horizon.map { snapshot.instant >= $0 } ?? false
      if !current.holds(for: countdown) || pastHorizon {
        makePlan(for: countdown, at: snapshot.instant)
        return
      }
      setMoving(current.nextEvent(after: snapshot.instant) != nil)
      checkMediaClock()
    }

    /// Makes and publishes the plan of `countdown` from `instant` on, carried across with fresh reads of
    /// the two clocks.
    private func makePlan(for countdown: Countdown<C.Instant>, at instant: C.Instant) {
      let plan = countdown.ringAnimation(phases: phases, ring: size, at: instant)
      published.plan = plan
      self.plan = plan
      setMoving(plan.nextEvent(after: instant) != nil)
      carryPlan(by: Self.readClocks(engine, mediaClock))
    }

    /// Publishes `moving` as ``isMoving`` if it is new.
    private func setMoving(_ moving: Bool) {
      guard moving != published.isMoving else { return }
      published.isMoving = moving
      isMoving = moving
    }

    /// Carries ``plan`` onto the host's clock with `clocks`, publishes it and hands it to `onPlan`.
    private func carryPlan(by clocks: (engine: C.Instant, media: MediaTime)) {
      anchor = clocks
      let carried = Self.carry(published.plan, by: clocks)
      published.mediaPlan = carried
      mediaPlan = carried
      onPlan?(carried)
    }

    /// How far the host's clock is from where the anchor puts it at `clocks.engine` (either way).
    private func drift(at clocks: (engine: C.Instant, media: MediaTime)) -> Duration {
      let expected = anchor.media.advanced(by: anchor.engine.duration(to: clocks.engine))
      let drift = expected.duration(to: clocks.media)
      return drift < .zero ? .zero - drift : drift
    }

    /// `plan` on the host's clock: each instant as far from `clocks.media` as it is from `clocks.engine`.
    private static func carry(_ plan: Plan, by clocks: (engine: C.Instant, media: MediaTime)) -> MediaPlan {
      plan.converted { clocks.media.advanced(by: clocks.engine.duration(to: $0)) }
    }

    /// The engine's clock and the host's read together: the host's read on both sides of the engine's,
    /// and the middle taken, so that being descheduled between two reads shows as half the gap at most.
    private static func readClocks(_ engine: CountdownEngine<C>, _ media: MediaClock) -> (
      engine: C.Instant, media: MediaTime
    ) {
      let before = media.now
      let now = engine.now
      let after = media.now
      return (now, before.advanced(by: before.duration(to: after) / 2))
    }

    /// The published properties, as last set.
    private struct Published {
      var plan: Plan
      var mediaPlan: MediaPlan
      var isMoving: Bool
    }

    /// `ring` as the model keeps it: full (its progress is not used).
    private static func size(of ring: RingGeometry) -> RingGeometry {
      RingGeometry(
        progress: 1, diameter: ring.diameter, lineWidth: ring.lineWidth, scale: ring.scale, clockwise: ring.isClockwise)
    }
  }
#endif
