/// A built-in display's rule in integer arithmetic on ticks: what the engine's hot loop evaluates
/// instead of calling the display.
///
/// The built-in displays whose values step by whole nanoseconds (seconds, minutes, overtime and
/// elapsed readings, adaptive schedules, progress rings, phases) have a plan; for them the engine
/// computes each value and its next change with a few 64-bit operations and keeps the value as one
/// `Int64` (its *compact* form). Any other display (custom, combined, mapped, or a built-in with a
/// unit finer than a nanosecond) has no plan and goes through the generic path, which calls the display.
///
/// On the whole-nanosecond remaining times the engine works with, a plan gives exactly what its display
/// gives: `PlanTests` checks every plan against its display on seeded random inputs and boundaries.
@usableFromInline
package enum DisplayPlan: Hashable, Sendable {
  /// ``RoundedDisplay``: compact value = the shown time in ticks (see ``RoundedRule``).
  case rounded(unit: Tick, elapsed: Bool, overtime: Bool)
  /// ``AdaptiveDisplay``: compact value = the shown time in ticks. Tiers, largest threshold first.
  case adaptive(tiers: [AdaptiveTier], finest: Tick)
  /// ``ProgressDisplay``: compact value = the number of steps left.
  case progress(steps: Tick, total: Tick)
  /// ``PhaseDisplay``: compact value = the index of the phase's value among the display's distinct
  /// values (0 is the initial value). Thresholds largest first, with the value index of each.
  case phases(thresholds: [Tick], values: [Int64])

  /// One tier of an adaptive plan: while more than `above` is left, round up to `unit`.
  @usableFromInline
  package struct AdaptiveTier: Hashable, Sendable {
    @usableFromInline package var above: Tick
    @usableFromInline package var unit: Tick

    @inlinable
    package init(above: Tick, unit: Tick) {
      self.above = above
      self.unit = unit
    }
  }

  /// The plan of `display`, or `nil` when it has none (the generic path).
  @inlinable
  package static func make<Display: CountdownDisplay>(for display: Display) -> DisplayPlan? {
    if let rounded = display as? RoundedDisplay {
      guard let unit = exactTicks(rounded.unit) else { return nil }
      return .rounded(unit: unit, elapsed: rounded.reading == .elapsed, overtime: rounded.showsOvertime)
    }
    if let adaptive = display as? AdaptiveDisplay {
      var tiers: [AdaptiveTier] = []
      for tier in adaptive.tiers {
        guard let above = exactTicks(tier.above), let unit = exactTicks(tier.unit) else { return nil }
        tiers.append(AdaptiveTier(above: above, unit: unit))
      }
      guard let finest = exactTicks(adaptive.finest) else { return nil }
      return .adaptive(tiers: tiers, finest: finest)
    }
    if let progress = display as? ProgressDisplay {
      guard let total = exactTicks(progress.total) else { return nil }
      return .progress(steps: Tick(progress.steps), total: total)
    }
    if let phases = display as? PhaseDisplay<Display.Value> {
      var distinct = [phases.initial]
      var thresholds: [Tick] = []
      var values: [Int64] = []
      for phase in phases.phases {
        guard let threshold = exactTicks(phase.startsAt) else { return nil }
        let index = distinct.firstIndex(of: phase.value) ?? distinct.count
        if index == distinct.count { distinct.append(phase.value) }
        thresholds.append(threshold)
        values.append(Int64(index))
      }
      return .phases(thresholds: thresholds, values: values)
    }
    return nil
  }

  /// Whether the compact values of `plan` are the shown time in ticks, for a display whose values are
  /// of type `Value` (rounded and adaptive plans of `Duration` values).
  @inlinable
  package static func valueIsTicks<Value>(_ plan: DisplayPlan?, for _: Value.Type) -> Bool {
    switch plan {
    case .rounded, .adaptive: Value.self == Duration.self
    case .progress, .phases, nil: false
    }
  }

  /// `duration` in ticks if it is a whole number of them within range (not saturated).
  @inlinable
  static func exactTicks(_ duration: Duration) -> Tick? {
    let (quotient, remainder) = duration.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    guard remainder == 0, quotient <= Int128(Ticks.max), quotient >= Int128(Ticks.min) else { return nil }
    return Tick(quotient)
  }
}

extension DisplayPlan {
  /// The compact value shown with `remaining` left and, unless `paused`, the remaining time at which it
  /// next changes: ``value(remaining:)`` and ``nextChange(after:)`` in one go (whole units: one
  /// division).
  package func evaluate(remaining: Tick, paused: Bool) -> (value: Int64, next: Tick?) {
    guard case .rounded(let unit, let elapsed, let overtime) = self else {
      return (value(remaining: remaining), paused ? nil : nextChange(after: remaining))
    }
    return RoundedRule(unit: unit, elapsed: elapsed, overtime: overtime).evaluate(remaining: remaining, paused: paused)
  }

  /// The compact value shown with `remaining` left.
  @usableFromInline
  package func value(remaining: Tick) -> Int64 {
    switch self {
    case .rounded(let unit, let elapsed, let overtime):
      return RoundedRule(unit: unit, elapsed: elapsed, overtime: overtime).evaluate(remaining: remaining, paused: true)
        .value
    case .adaptive(let tiers, let finest):
      guard remaining > 0 else { return 0 }
      // Each tier rounds up to its unit, as a rounded display does.
      let rule = RoundedRule(unit: Self.tier(of: remaining, tiers: tiers, finest: finest).unit)
      return rule.value(units: rule.units(remaining: remaining))
    case .progress(let steps, let total):
      return Self.progressStep(remaining, steps: steps, total: total)
    case .phases(let thresholds, let values):
      return Self.phaseValue(remaining, thresholds: thresholds, values: values)
    }
  }

  /// The largest remaining time below `remaining` at which the value differs, or `nil` if it never
  /// changes again (the display's `nextChange(after:)`, in ticks).
  package func nextChange(after remaining: Tick) -> Tick? {
    switch self {
    case .rounded(let unit, let elapsed, let overtime):
      return RoundedRule(unit: unit, elapsed: elapsed, overtime: overtime).evaluate(remaining: remaining, paused: false)
        .next
    case .adaptive(let tiers, let finest):
      return Self.adaptiveNextChange(after: remaining, tiers: tiers, finest: finest)
    case .progress(let steps, let total):
      let step = Self.progressStep(remaining, steps: steps, total: total)
      guard step > 0 else { return nil }
      // The largest r with ceil(r · steps / total) == step − 1 is floor((step − 1) · total / steps).
      let scaled = total.multipliedFullWidth(by: step - 1)
      return steps.dividingFullWidth(scaled).quotient
    case .phases(let thresholds, let values):
      let current = Self.phaseValue(remaining, thresholds: thresholds, values: values)
      for threshold in thresholds where threshold < remaining {
        if Self.phaseValue(threshold, thresholds: thresholds, values: values) != current { return threshold }
      }
      return nil
    }
  }

  static func tier(of remaining: Tick, tiers: [AdaptiveTier], finest: Tick) -> (unit: Tick, lowerBound: Tick) {
    for tier in tiers where remaining > tier.above { return (tier.unit, tier.above) }
    return (finest, 0)
  }

  /// ``AdaptiveDisplay/nextChange(after:)`` in ticks: the next unit boundary, crossing tiers where needed.
  static func adaptiveNextChange(after remaining: Tick, tiers: [AdaptiveTier], finest: Tick) -> Tick? {
    guard remaining > 0 else { return nil }
    let adaptive = DisplayPlan.adaptive(tiers: tiers, finest: finest)
    let current = adaptive.value(remaining: remaining)
    var position = remaining
    while true {
      let (unit, lowerBound) = tier(of: position, tiers: tiers, finest: finest)
      let rule = RoundedRule(unit: unit)
      // `position` is positive: the value has a next change.
      let candidate = rule.nextChange(units: rule.units(remaining: position)) ?? 0
      if candidate > lowerBound || lowerBound <= 0 { return Swift.max(candidate, 0) }
      if adaptive.value(remaining: lowerBound) != current { return lowerBound }
      position = lowerBound
    }
  }

  static func progressStep(_ remaining: Tick, steps: Tick, total: Tick) -> Int64 {
    guard remaining > 0 else { return 0 }
    guard remaining < total else { return steps }
    // ceil(remaining · steps / total), exact: remaining < total, so the quotient is below `steps`.
    let (quotient, rest) = total.dividingFullWidth(remaining.multipliedFullWidth(by: steps))
    return quotient + (rest > 0 ? 1 : 0)
  }

  static func phaseValue(_ remaining: Tick, thresholds: [Tick], values: [Int64]) -> Int64 {
    var current: Int64 = 0
    for (threshold, value) in zip(thresholds, values) {
      guard remaining <= threshold else { break }
      current = value
    }
    return current
  }
}
