// Engine time: whole nanoseconds since the engine's origin, in an `Int64`.
//
// Everything inside the engine's core counts in ticks: comparing two instants, subtracting them and
// dividing by a display's unit are single machine instructions, and a countdown's hot fields fit in
// 24 bytes. Ticks cover ±292 years around the engine's start; anything farther is held at that
// distance (saturated), so an absurd end is simply "never" instead of an overflow. The engine converts
// at its edge only (`CountdownEngine+Conversions.swift`): the clock's instants and `Duration`s in,
// `Duration`s and instants out.

/// Nanoseconds since the engine's origin; the engine core's only unit of time.
@usableFromInline
package typealias Tick = Int64

/// Tick arithmetic: conversions from and to `Duration` and saturating sums.
@usableFromInline
package enum Ticks {
  /// The largest tick, ±292 years from the origin: an end held here never comes.
  @inlinable package static var max: Tick { .max }
  /// The smallest tick; the range is symmetric, so that negating a tick never overflows.
  @inlinable package static var min: Tick { -.max }

  @inlinable static var attosecondsPerTick: Int128 { 1_000_000_000 }

  /// `duration` in ticks, rounded up (towards +∞) and saturated: for ends and remaining times, so that
  /// what the engine shows is never less than the truth.
  @inlinable
  package static func ceiling(_ duration: Duration) -> Tick {
    let (quotient, remainder) = duration.attoseconds.quotientAndRemainder(dividingBy: attosecondsPerTick)
    return clamped(remainder > 0 ? quotient + 1 : quotient)
  }

  /// `duration` in ticks, rounded down (towards −∞) and saturated: for the current time, so that the
  /// engine never believes it is later than it is.
  @inlinable
  package static func floor(_ duration: Duration) -> Tick {
    let (quotient, remainder) = duration.attoseconds.quotientAndRemainder(dividingBy: attosecondsPerTick)
    return clamped(remainder < 0 ? quotient - 1 : quotient)
  }

  @inlinable
  static func clamped(_ value: Int128) -> Tick {
    value > Int128(max) ? max : value < Int128(min) ? min : Tick(value)
  }

  /// `ticks` as a duration (exact).
  @inlinable
  package static func duration(_ ticks: Tick) -> Duration {
    .nanoseconds(ticks)
  }

  /// `a + b`, saturated to the tick range.
  @inlinable
  package static func sum(_ a: Tick, _ b: Tick) -> Tick {
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { return b > 0 ? max : min }
    return Swift.max(sum, min)
  }

  /// `a - b`, saturated to the tick range.
  @inlinable
  package static func difference(_ a: Tick, _ b: Tick) -> Tick {
    sum(a, -b)
  }
}
