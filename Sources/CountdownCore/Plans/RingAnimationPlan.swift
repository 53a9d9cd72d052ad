/// How a ring moves from one instant on, as segments the system can animate by itself: Core Animation,
/// SwiftUI or a display link, instead of a callback at every visible step.
///
/// Made by ``Countdown/ringAnimation(phases:ring:at:limit:)``. While a countdown runs, its ring's stroke
/// end falls linearly from the fraction left to zero, and its colour changes at the phase thresholds;
/// a plan lists that motion as consecutive ``Segment``s from the instant it was made: each a linear
/// stretch of the stroke end in one phase. Segments end where something happens: a phase change, the
/// finish, or the moment a countdown given more than its total starts to empty. After the last segment
/// the ring rests at ``restingStrokeEnd`` in ``restingPhase``.
///
/// ```swift
/// let plan = turn.ringAnimation(phases: .phases(0, [.seconds(4): 1, .seconds(2): 2]), ring: ring, at: now)
/// for segment in plan.segments {
///   print(segment.start, segment.duration, segment.fromStrokeEnd, segment.toStrokeEnd, segment.phase)
/// }
/// ```
///
/// A plan foresees everything the countdown does by itself (phase changes and the finish are
/// boundaries between its segments), so it stays true until the countdown is changed from outside:
/// paused, resumed, retargeted or extended. ``holds(for:)`` tells whether it still describes a
/// countdown; make a new plan when it does not. A plan cut at its segment limit says from when it no
/// longer knows (``horizon``).
///
/// Sampled at any instant from ``instant`` on, ``strokeEnd(at:)`` is within one visible step of the
/// ``RingGeometry/strokeEnd`` of the countdown's progress at that instant (the plan's values are the
/// exact progress, the geometry's are rounded to the ring's pixels), and ``phase(at:)`` is the phase
/// display's value exactly.
public struct RingAnimationPlan<Phase: Equatable & Sendable, Instant: InstantProtocol>: Equatable, Sendable
where Instant.Duration == Duration {
  /// One linear stretch of the stroke end, in one phase.
  public struct Segment: Equatable, Sendable {
    /// The instant the segment begins.
    public var start: Instant
    /// How long it lasts (positive).
    public var duration: Duration
    /// The stroke end at ``start``: the fraction of the total left, in 0…1.
    public var fromStrokeEnd: Double
    /// The stroke end at ``end``.
    public var toStrokeEnd: Double
    /// The phase display's value throughout the segment (its colour).
    public var phase: Phase
    /// What happens at ``end``.
    public var endsWith: RingAnimationEvents

    /// A segment with every field given.
    public init(
      start: Instant, duration: Duration, fromStrokeEnd: Double, toStrokeEnd: Double, phase: Phase,
      endsWith: RingAnimationEvents
    ) {
      self.start = start
      self.duration = duration
      self.fromStrokeEnd = fromStrokeEnd
      self.toStrokeEnd = toStrokeEnd
      self.phase = phase
      self.endsWith = endsWith
    }

    /// The instant the segment ends (the next one, if any, begins there).
    public var end: Instant { start.advanced(by: duration) }

    /// The stroke end at `instant`, interpolated linearly; clamped to the segment's two ends outside it.
    public func strokeEnd(at instant: Instant) -> Double {
      let elapsed = start.duration(to: instant)
      if elapsed <= .zero { return fromStrokeEnd }
      if elapsed >= duration { return toStrokeEnd }
      return fromStrokeEnd + (toStrokeEnd - fromStrokeEnd) * (elapsed / duration)
    }
  }

  /// The instant the plan was made for: its first segment begins there.
  public let instant: Instant
  /// The countdown the plan describes; the plan holds while the countdown is this one.
  public let countdown: Countdown<Instant>
  /// The ring's size (its `progress` is the fraction left at ``instant``).
  public let ring: RingGeometry
  /// The motion from ``instant`` on, consecutive, in order; empty when the ring does not move and its
  /// phase does not change (paused, or finished with no phase to come).
  public let segments: [Segment]
  /// The stroke end after the last segment (from ``instant`` on when there is none).
  public let restingStrokeEnd: Double
  /// The phase after the last segment (from ``instant`` on when there is none).
  public let restingPhase: Phase
  /// `nil` when the plan runs to the end of what the countdown does by itself; otherwise the instant at
  /// which the segment limit cut it off: past it, the plan shows its last values, which may be wrong, so
  /// make a new plan by then.
  public let horizon: Instant?

  /// A plan with every field given; ``Countdown/ringAnimation(phases:ring:at:limit:)`` makes them.
  package init(
    instant: Instant, countdown: Countdown<Instant>, ring: RingGeometry, segments: [Segment], restingStrokeEnd: Double,
    restingPhase: Phase, horizon: Instant?
  ) {
    self.instant = instant
    self.countdown = countdown
    self.ring = ring
    self.segments = segments
    self.restingStrokeEnd = restingStrokeEnd
    self.restingPhase = restingPhase
    self.horizon = horizon
  }

  /// Whether this plan still describes `countdown`: it was made from the same countdown, which has not
  /// been paused, resumed, retargeted or extended since.
  public func holds(for countdown: Countdown<Instant>) -> Bool {
    countdown == self.countdown
  }

  /// The segment under way at `instant`, or `nil` before ``instant`` and after the last segment.
  ///
  /// - Complexity: O(log n) in the number of segments.
  public func segment(at instant: Instant) -> Segment? {
    guard let index = segmentIndex(at: instant) else { return nil }
    return segments[index]
  }

  /// The stroke end at `instant`: the first segment's start value before ``instant``, the resting value
  /// after the last segment.
  ///
  /// - Complexity: O(log n) in the number of segments.
  public func strokeEnd(at instant: Instant) -> Double {
    if let segment = segment(at: instant) { return segment.strokeEnd(at: instant) }
    if let first = segments.first, instant < first.start { return first.fromStrokeEnd }
    return restingStrokeEnd
  }

  /// The phase at `instant`: the first segment's before ``instant``, the resting phase after the last.
  ///
  /// - Complexity: O(log n) in the number of segments.
  public func phase(at instant: Instant) -> Phase {
    if let segment = segment(at: instant) { return segment.phase }
    if let first = segments.first, instant < first.start { return first.phase }
    return restingPhase
  }

  /// The ring's geometry at `instant` (its stroke end rounded to the ring's pixels, its dot), for a
  /// display link or a custom drawing.
  public func ring(at instant: Instant) -> RingGeometry {
    RingGeometry(
      progress: strokeEnd(at: instant), diameter: ring.diameter, lineWidth: ring.lineWidth, scale: ring.scale,
      clockwise: ring.isClockwise)
  }

  /// The next instant after `instant` at which something happens, with what happens there; `nil` when
  /// nothing will until the countdown is changed from outside.
  ///
  /// - Complexity: O(log n) in the number of segments.
  public func nextEvent(after instant: Instant) -> (at: Instant, events: RingAnimationEvents)? {
    let index = firstIndex(endingAfter: instant)
    guard index < segments.count else { return nil }
    return (segments[index].end, segments[index].endsWith)
  }

  /// The time the ring takes to move one visible step (the total over the ring's
  /// ``RingGeometry/visibleSteps``); `nil` without a positive total.
  ///
  /// A continuous animation makes the system draw every frame. For a ring that moves a pixel only every
  /// few seconds (a two-hour window: about every 17 s on a 48-point ring at 3×), stepping it at this
  /// interval (`TimelineView(.periodic(from:by:))`, or a progress display with the ring's visible
  /// steps) shows the same and draws far less.
  public var stepInterval: Duration? {
    guard let total = countdown.total, total > .zero else { return nil }
    return total / ring.visibleSteps
  }

  /// The index of the segment with `start <= instant < end`, if any.
  private func segmentIndex(at instant: Instant) -> Int? {
    guard let first = segments.first, first.start <= instant else { return nil }
    let index = firstIndex(endingAfter: instant)
    return index < segments.count ? index : nil
  }

  /// The index of the first segment that ends after `instant` (`segments.count` if none), by binary search.
  private func firstIndex(endingAfter instant: Instant) -> Int {
    var low = 0
    var high = segments.count
    while low < high {
      let middle = (low + high) / 2
      if segments[middle].end <= instant { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
