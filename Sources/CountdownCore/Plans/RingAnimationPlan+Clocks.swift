// A plan carried from one clock to another (the engine's to the host's animation clock), and the dot
// at the moving end of its ring.

extension RingAnimationPlan {
  /// The same plan on another clock: every instant (the plan's, its segments' starts, its horizon, its
  /// countdown's end or pause) carried across by `convert`; durations, stroke ends and phases unchanged.
  ///
  /// `convert` must keep durations: `convert(a).duration(to: convert(b)) == a.duration(to: b)`, as a
  /// fixed offset between two clocks does (the engine's `ContinuousClock` and Core Animation's
  /// ``MediaTime`` read together, while the device stays awake).
  ///
  /// ```swift
  /// let (mediaNow, now) = (MediaTime(seconds: CACurrentMediaTime()), clock.now)
  /// let onMedia = plan.converted { mediaNow.advanced(by: now.duration(to: $0)) }
  /// ```
  ///
  /// - Complexity: O(n) in the number of segments.
  public func converted<Other: InstantProtocol>(
    _ convert: (Instant) -> Other
  ) -> RingAnimationPlan<Phase, Other> where Other.Duration == Duration {
    RingAnimationPlan<Phase, Other>(
      instant: convert(instant), countdown: countdown.converted(convert), ring: ring,
      segments: segments.map { segment in
        RingAnimationPlan<Phase, Other>.Segment(
          start: convert(segment.start), duration: segment.duration, fromStrokeEnd: segment.fromStrokeEnd,
          toStrokeEnd: segment.toStrokeEnd, phase: segment.phase, endsWith: segment.endsWith)
      },
      restingStrokeEnd: restingStrokeEnd, restingPhase: restingPhase, horizon: horizon.map(convert))
  }

  /// The angle in radians the moving end of the ring, and its dot, has turned from 12 o'clock at
  /// `strokeEnd`: `2π · strokeEnd`, negative for a counterclockwise ring (angles grow clockwise on
  /// screen, as in ``RingGeometry``).
  ///
  /// For a dot carried round the ring's centre by a layer that turns: animate its
  /// `transform.rotation.z` from `rotation(strokeEnd: segment.fromStrokeEnd)` to
  /// `rotation(strokeEnd: segment.toStrokeEnd)`. Not rounded to the ring's pixels, as an animation is
  /// not; ``dotPosition(at:)`` is.
  public func rotation(strokeEnd: Double) -> Double {
    let clamped = strokeEnd.isFinite ? min(max(strokeEnd, 0), 1) : 0
    return (ring.isClockwise ? 2 : -2) * Double.pi * clamped
  }

  /// Where the dot at the moving end of the ring is at `instant`, in the ring's coordinates (points from
  /// the top-left corner of its square, `y` growing downwards): ``RingGeometry/dotPosition`` of
  /// ``ring(at:)``, so the dot sits on the drawn arc's end.
  ///
  /// - Complexity: O(log n) in the number of segments.
  public func dotPosition(at instant: Instant) -> RingGeometry.Point {
    ring(at: instant).dotPosition
  }
}
