/// A display that maps thresholds of remaining time to values: colours, icons, messages.
///
/// ```swift
/// enum Urgency { case plenty, hurry, lastMinute }
/// let display: PhaseDisplay<Urgency> = .phases(.plenty, [.seconds(300): .hurry, .seconds(60): .lastMinute])
/// display.value(remaining: .seconds(301))   // .plenty
/// display.value(remaining: .seconds(300))   // .hurry: a phase starts when its threshold is reached
/// ```
///
/// The eight-colour timer of a card game is `.phases(0, [.seconds(7): 1, .seconds(6): 2, …])`.
public struct PhaseDisplay<Value: Equatable & Sendable>: CountdownDisplay {
  /// A phase: from the moment ``startsAt`` or less is left, the display shows ``value``.
  public struct Phase: Sendable {
    /// The remaining time at which the phase begins (inclusive).
    public var startsAt: Duration
    /// What the display shows during the phase.
    public var value: Value

    /// A phase showing `value` once `startsAt` or less is left.
    public init(startsAt: Duration, value: Value) {
      self.startsAt = startsAt
      self.value = value
    }
  }

  /// The value before the first phase begins.
  public let initial: Value
  /// The phases, latest-starting (largest threshold) first.
  public let phases: [Phase]

  /// A display showing `initial` until the first threshold, then each phase's value in turn.
  ///
  /// Phases may be given in any order; for equal thresholds the one given last wins.
  public init(initial: Value, phases: [Phase]) {
    self.initial = initial
    // A stable sort keeps the given order among equal thresholds.
    self.phases = phases.enumerated()
      .sorted {
        $0.element.startsAt != $1.element.startsAt ? $0.element.startsAt > $1.element.startsAt : $0.offset < $1.offset
      }
      .map(\.element)
  }

  /// The value of the phase `remaining` falls in.
  public func value(remaining: Duration) -> Value {
    var current = initial
    for phase in phases {
      guard remaining <= phase.startsAt else { break }
      current = phase.value
    }
    return current
  }

  /// The next threshold below `remaining` whose phase shows a different value.
  public func nextChange(after remaining: Duration) -> Duration? {
    let current = value(remaining: remaining)
    for phase in phases where phase.startsAt < remaining {
      if value(remaining: phase.startsAt) != current { return phase.startsAt }
    }
    return nil
  }
}

extension CountdownDisplay {
  /// A display showing `initial`, then each value once its remaining-time threshold is reached.
  public static func phases<PhaseValue>(
    _ initial: PhaseValue,
    _ phases: KeyValuePairs<Duration, PhaseValue>
  ) -> PhaseDisplay<PhaseValue> where Self == PhaseDisplay<PhaseValue> {
    PhaseDisplay(initial: initial, phases: phases.map { PhaseDisplay.Phase(startsAt: $0.key, value: $0.value) })
  }
}
