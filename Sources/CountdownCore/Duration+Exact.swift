// Exact integer arithmetic on `Duration`.
//
// `Duration / Duration` returns a `Double`, which loses precision far from zero. Displays must
// decide on which side of a boundary a remaining time lies to the attosecond, so the core does
// its rounding on the exact 128-bit attosecond count instead.

let attosecondsPerSecond: Int128 = 1_000_000_000_000_000_000

extension Duration {
  /// The exact length of this duration in attoseconds.
  package var attosecondCount: Int128 { attoseconds }

  /// A duration of exactly `count` attoseconds, clamped to the range `Duration` can hold.
  package init(attosecondCount count: Int128) {
    if count > Duration.maxAttosecondCount {
      self = .max
      return
    }
    if count < Duration.minAttosecondCount {
      self = .min
      return
    }
    self.init(attoseconds: count)
  }

  /// How many whole `unit`s fit in this duration, rounded by `rule`.
  ///
  /// - Precondition: `unit` is positive.
  package func quotient(dividingBy unit: Duration, rounding rule: FloatingPointRoundingRule) -> Int128 {
    let divisor = unit.attosecondCount
    precondition(divisor > 0, "A display unit must be a positive duration, got \(unit)")
    var (quotient, remainder) = attosecondCount.quotientAndRemainder(dividingBy: divisor)
    switch rule {
    case .up:
      if remainder > 0 { quotient += 1 }
    case .down:
      if remainder < 0 { quotient -= 1 }
    case .towardZero:
      break
    case .awayFromZero:
      if remainder > 0 { quotient += 1 } else if remainder < 0 { quotient -= 1 }
    case .toNearestOrEven, .toNearestOrAwayFromZero:
      let twice = remainder.magnitude * 2
      if twice > divisor.magnitude
        || (twice == divisor.magnitude && (rule == .toNearestOrAwayFromZero || quotient & 1 != 0))
      {
        quotient += remainder > 0 ? 1 : -1
      }
    @unknown default:
      if remainder > 0 { quotient += 1 }
    }
    return quotient
  }

  /// This duration in seconds, as a `Double` (a Foundation `TimeInterval`).
  package var timeInterval: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// `unit` multiplied by `count`, clamped to the range `Duration` can hold.
  package static func multiple(of unit: Duration, count: Int128) -> Duration {
    exactMultiple(of: unit, count: count) ?? ((count < 0) == (unit.attosecondCount < 0) ? .max : .min)
  }

  /// `unit` multiplied by `count`; `nil` when the product is beyond the range `Duration` can hold.
  package static func exactMultiple(of unit: Duration, count: Int128) -> Duration? {
    let (product, overflow) = unit.attosecondCount.multipliedReportingOverflow(by: count)
    guard !overflow, product >= Duration.min.attosecondCount, product <= Duration.max.attosecondCount else {
      return nil
    }
    return Duration(attosecondCount: product)
  }

  /// This duration rounded to a whole number of `unit`s.
  ///
  /// - Precondition: `unit` is positive.
  package func rounded(to unit: Duration, _ rule: FloatingPointRoundingRule) -> Duration {
    .multiple(of: unit, count: quotient(dividingBy: unit, rounding: rule))
  }
}

extension Duration {
  /// The largest duration `Duration` can represent (about 292 billion years).
  package static let max = Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999)
  private static let maxAttosecondCount = Int128(Int64.max) * attosecondsPerSecond + (attosecondsPerSecond - 1)
  /// ``min`` in attoseconds: one second further from zero than `-maxAttosecondCount`, as whole seconds
  /// are an `Int64`.
  private static let minAttosecondCount = Int128(Int64.min) * attosecondsPerSecond - (attosecondsPerSecond - 1)
  /// The most negative duration `Duration` can represent.
  package static let min = Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999)
}
