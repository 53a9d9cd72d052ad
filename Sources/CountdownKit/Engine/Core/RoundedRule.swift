/// ``RoundedDisplay``'s rule in ticks: the value a display of whole units shows, and when it next
/// changes. The one place the engine computes it: the display plan evaluates it
/// (`DisplayPlan.evaluate(remaining:paused:)`), the serving loop's fast path takes a countdown on with
/// it (`EngineCore.CountingDown`), and the phase groups of a board that keeps every row's value give
/// their rows' values with it (`LiveColumns`). `RoundedRuleTests` checks it against ``RoundedDisplay``.
@usableFromInline
package struct RoundedRule: Hashable, Sendable {
  /// The unit, in ticks (positive).
  package let unit: Tick
  /// Whether the display reads the time elapsed since the end instead of the time left.
  package let elapsed: Bool
  /// For the time left: whether the value goes negative after the end instead of staying at zero.
  package let overtime: Bool

  @inline(__always)
  package init(unit: Tick, elapsed: Bool = false, overtime: Bool = false) {
    self.unit = unit
    self.elapsed = elapsed
    self.overtime = overtime
  }

  /// The whole units shown with `remaining` left: the time left rounded up, ⌈remaining / unit⌉ (a
  /// countdown reads 0 only when its time is up), not below zero without overtime; the time elapsed
  /// rounded down, not below zero.
  @inline(__always)
  package func units(remaining: Tick) -> Int64 {
    let (quotient, rest) = remaining.quotientAndRemainder(dividingBy: unit)
    // Swift's `/` truncates toward zero, which is the ceiling for a negative `remaining`.
    let roundedUp = rest > 0 ? quotient + 1 : quotient
    if elapsed { return Swift.max(-roundedUp, 0) }
    return overtime ? roundedUp : Swift.max(roundedUp, 0)
  }

  /// The value shown with `units` units: `unit · units`, saturated to the tick range.
  @inline(__always)
  package func value(units: Int64) -> Tick {
    let (product, overflow) = unit.multipliedReportingOverflow(by: units)
    if overflow { return units < 0 ? Ticks.min : Ticks.max }
    return Swift.max(product, Ticks.min)
  }

  /// The remaining time at which the value shown with `units` units changes next; nil if it never
  /// does (a countdown at zero without overtime).
  package func nextChange(units: Int64) -> Tick? {
    if elapsed { return value(units: -(units + 1)) }
    if !overtime && units <= 0 { return nil }
    return value(units: units - 1)
  }

  /// The value shown with `remaining` left and, unless `paused`, the remaining time at which it next
  /// changes.
  package func evaluate(remaining: Tick, paused: Bool) -> (value: Tick, next: Tick?) {
    let units = units(remaining: remaining)
    return (value(units: units), paused ? nil : nextChange(units: units))
  }

  /// For a countdown with time left (`remaining > 0`, not elapsed): the value it shows and the
  /// remaining time of its next change, exactly; nil where the value would saturate. One division.
  @inline(__always)
  package func step(remaining: Tick) -> (value: Tick, next: Tick)? {
    let units = units(remaining: remaining)
    let (value, overflow) = unit.multipliedReportingOverflow(by: units)
    guard !overflow else { return nil }
    return (value, value - unit)
  }

  // Phase groups (`LiveColumns`): a countdown's end is `number · unit + phase`; the rows whose phases
  // fall in one window of the unit form a group, served once per unit at the window's end.

  /// The number of the unit `tick` falls in, and its phase within it (`tick ≥ 0`).
  @inline(__always)
  package func unitNumber(of tick: Tick) -> (number: Int64, phase: Tick) {
    let (number, phase) = tick.quotientAndRemainder(dividingBy: unit)
    return (number, phase)
  }

  /// The units a running countdown whose end falls in unit `number` shows from its group's serve in
  /// period `period` on: `number − period`. The serve comes at the end of the group's window, less than
  /// a unit after the boundary at which the countdown's value became that, so that this is
  /// ``units(remaining:)`` at the serve.
  @inline(__always)
  package func units(endingIn number: Int64, period: Int64) -> Int64 {
    number - period
  }
}
