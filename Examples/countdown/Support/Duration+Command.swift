import Foundation

// Small conversions the command needs, written on `Duration`'s public components: the example uses
// only the libraries' public API, as any client would.

extension Duration {
  /// The exact length in attoseconds.
  var attosecondsTotal: Int128 {
    let (seconds, attoseconds) = components
    return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
  }

  /// This duration in seconds, as a Foundation `TimeInterval`.
  var timeIntervalValue: TimeInterval {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// How many whole `unit`s fit in this duration, rounded down (towards minus infinity).
  ///
  /// - Precondition: `unit` is positive.
  func floorQuotient(dividingBy unit: Duration) -> Int128 {
    let divisor = unit.attosecondsTotal
    precondition(divisor > 0, "Internal inconsistency: a unit must be positive, got \(unit)")
    let (quotient, remainder) = attosecondsTotal.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// `unit` times `count`, for counts whose product fits a `Duration` (callers stay within a day).
  static func times(_ unit: Duration, _ count: Int128) -> Duration {
    let (seconds, attoseconds) = (unit.attosecondsTotal * count).quotientAndRemainder(
      dividingBy: 1_000_000_000_000_000_000)
    return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(attoseconds))
  }
}
