extension Countdown {
  /// How a ring showing this countdown moves from `now` on, in `phases`' colours: segments for Core
  /// Animation, SwiftUI or a display link, true until the countdown is paused, resumed, retargeted or
  /// extended.
  ///
  /// The stroke end is the fraction of ``total`` left (``progress(at:)``; 0 without a total). A running
  /// countdown's plan has a segment per stretch between events: phase changes, the finish, and the
  /// moment a countdown given more than its total starts to empty; with an overtime phase display the
  /// empty ring goes on changing colour after the finish. A paused countdown's plan has no segment: its
  /// ring rests where it is.
  ///
  /// ```swift
  /// let size = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
  /// let plan = turn.ringAnimation(phases: circularTimer, ring: size, at: clock.now)
  /// ```
  ///
  /// - Parameters:
  ///   - phases: What colours the ring (a ``PhaseDisplay``, or any display: a segment ends wherever its
  ///     value changes).
  ///   - ring: The ring's size; its `progress` is not used.
  ///   - now: The instant the plan starts at.
  ///   - limit: The most segments to list; a plan cut there has a ``RingAnimationPlan/horizon``.
  /// - Precondition: `limit` is positive.
  /// - Complexity: O(`limit`) display calls.
  public func ringAnimation<Phases: CountdownDisplay>(
    phases: Phases,
    ring: RingGeometry,
    at now: Instant,
    limit: Int = 64
  ) -> RingAnimationPlan<Phases.Value, Instant> {
    precondition(limit > 0, "A ring animation plan needs a positive segment limit, got \(limit)")
    typealias Plan = RingAnimationPlan<Phases.Value, Instant>
    let left = remaining(at: now)
    let geometry = RingGeometry(
      progress: strokeEnd(remaining: left), diameter: ring.diameter, lineWidth: ring.lineWidth, scale: ring.scale,
      clockwise: ring.isClockwise)
    var phase = phases.value(remaining: left)
    guard !isPaused else {
      return Plan(
        instant: now, countdown: self, ring: geometry, segments: [], restingStrokeEnd: strokeEnd(remaining: left),
        restingPhase: phase, horizon: nil)
    }
    // Walked in remaining time: the instant at which `r` is left is `now + (left - r)`.
    var segments: [Plan.Segment] = []
    var segmentStart = left
    var position = left
    var phaseChange = Self.checkedNextChange(of: phases, after: left)
    var horizon: Instant?
    // The largest remaining time below `position` at which the ring's motion or phase may change, with
    // what may happen there; `nil` when nothing can.
    func nextBoundary() -> (Duration, RingAnimationEvents)? {
      var next = phaseChange
      var events: RingAnimationEvents = phaseChange == nil ? [] : .phaseChange
      func consider(_ candidate: Duration, _ event: RingAnimationEvents) {
        guard candidate < position else { return }
        if let current = next, current > candidate { return }
        if next == candidate { events.insert(event) } else { (next, events) = (candidate, event) }
      }
      if let total, total > .zero { consider(total, .ringStartsEmptying) }
      consider(.zero, .finish)
      return next.map { ($0, events) }
    }
    while let (next, boundary) = nextBoundary() {
      var events = boundary.subtracting(.phaseChange)
      var nextPhase = phase
      if boundary.contains(.phaseChange) {
        nextPhase = phases.value(remaining: next)
        phaseChange = Self.checkedNextChange(of: phases, after: next)
        // A display may report a change that shows the same value (a mapped display past its skip
        // limit): not a phase change.
        if nextPhase != phase { events.insert(.phaseChange) }
      }
      position = next
      guard !events.isEmpty else { continue }
      if segments.count == limit {
        horizon = now.advanced(by: left - segmentStart)
        break
      }
      segments.append(
        Plan.Segment(
          start: now.advanced(by: left - segmentStart), duration: segmentStart - next,
          fromStrokeEnd: strokeEnd(remaining: segmentStart), toStrokeEnd: strokeEnd(remaining: next), phase: phase,
          endsWith: events))
      segmentStart = next
      phase = nextPhase
    }
    return Plan(
      instant: now, countdown: self, ring: geometry, segments: segments,
      restingStrokeEnd: strokeEnd(remaining: segmentStart), restingPhase: phase, horizon: horizon)
  }

  /// `display`'s next change after `remaining`, checked against the display contract.
  private static func checkedNextChange<Display: CountdownDisplay>(
    of display: Display, after remaining: Duration
  ) -> Duration? {
    let next = display.nextChange(after: remaining)
    precondition(
      next.map { $0 < remaining } ?? true,
      "\(Display.self).nextChange(after: \(remaining)) returned \(String(describing: next)), which is not below it (CountdownDisplay contract)"
    )
    return next
  }

  /// The stroke end of a ring with `remaining` left: the fraction of the total, 0 without one.
  private func strokeEnd(remaining: Duration) -> Double {
    guard let total, total > .zero, remaining > .zero else { return 0 }
    return remaining >= total ? 1 : remaining / total
  }
}
