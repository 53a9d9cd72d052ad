/// A display that shows the remaining or elapsed time rounded to a whole number of a unit.
///
/// Count-downs round *up*: 6.5 s left reads 7 s, and the value reads 0 only when the countdown has
/// finished. Elapsed (count-up) displays round *down*: a stopwatch at 6.5 s reads 6 s.
///
/// ```swift
/// let display: RoundedDisplay = .seconds
/// display.value(remaining: .milliseconds(6_500))       // 7 seconds
/// display.nextChange(after: .milliseconds(6_500))      // 6 seconds
/// ```
public struct RoundedDisplay: CountdownDisplay, Hashable {
  /// Which way the time is read.
  public enum Reading: Sendable, Hashable {
    /// The time left, rounded up; reads 0 once finished (or counts overtime, see ``showsOvertime``).
    case remaining
    /// The time since the end (a stopwatch's elapsed time), rounded down; reads 0 before the end.
    case elapsed
  }

  /// The unit the value is a whole multiple of.
  public let unit: Duration
  /// Whether the display reads the time left or the time elapsed.
  public let reading: Reading
  /// For ``Reading/remaining``: whether the value goes negative after the end (−1 s, −2 s, …)
  /// instead of staying at zero.
  public let showsOvertime: Bool
  /// `unit` in whole seconds when it is a whole number of seconds below ``fastPathLimit``, otherwise
  /// 0 (then every call takes the exact path). Derived from `unit`, so the synthesized `Hashable`
  /// conformance still tells displays apart by unit, reading and overtime alone.
  @usableFromInline let unitSeconds: Int64

  /// A display rounding to `unit`.
  ///
  /// - Precondition: `unit` is positive.
  public init(unit: Duration, reading: Reading = .remaining, showsOvertime: Bool = false) {
    precondition(unit > .zero, "RoundedDisplay needs a positive unit, got \(unit)")
    self.unit = unit
    self.reading = reading
    self.showsOvertime = showsOvertime
    let (seconds, fraction) = unit.attoseconds.quotientAndRemainder(dividingBy: Self.attosecondsPerSecond)
    unitSeconds = fraction == 0 && seconds < Self.fastPathLimit ? Int64(seconds) : 0
  }

  /// The remaining time rounded up to the unit (zero or, with overtime, negative after the end), or
  /// the elapsed time rounded down to the unit (zero before the end).
  @inlinable
  public func value(remaining: Duration) -> Duration {
    guard let count = wholeSecondCount(remaining: remaining) else { return exactValue(remaining: remaining) }
    return .seconds(count * unitSeconds)
  }

  /// The next remaining time at which the rounded value changes.
  @inlinable
  public func nextChange(after remaining: Duration) -> Duration? {
    guard let count = wholeSecondCount(remaining: remaining) else { return exactNextChange(after: remaining) }
    switch reading {
    case .remaining:
      if !showsOvertime && count <= 0 { return nil }
      return .seconds((count - 1) * unitSeconds)
    case .elapsed:
      return .seconds(-(count + 1) * unitSeconds)
    }
  }

  /// One unit.
  @inlinable
  public var period: Duration? { unit }

  /// The bound, in seconds, on a unit and on the magnitude of a remaining time for the Int64 path:
  /// 2⁶¹ s (73 billion years), so that every product that path forms stays below 2⁶³.
  @inlinable
  static var fastPathLimit: Int128 { 1 << 61 }

  /// 10¹⁸, as the 128-bit integers that `Duration.attoseconds` counts in.
  @inlinable
  static var attosecondsPerSecond: Int128 { 1_000_000_000_000_000_000 }

  /// The number of units shown at `remaining` (what the exact path's `count(remaining:)` returns),
  /// computed with one division by a constant and Int64 arithmetic; `nil` when the unit is not a
  /// whole number of seconds or `remaining` is ±``fastPathLimit`` seconds or more.
  @inlinable
  func wholeSecondCount(remaining: Duration) -> Int64? {
    guard unitSeconds != 0 else { return nil }
    let limit = Self.fastPathLimit * Self.attosecondsPerSecond
    let attoseconds = remaining.attoseconds
    guard attoseconds > -limit && attoseconds < limit else { return nil }
    let (wholeSeconds, fraction) = attoseconds.quotientAndRemainder(dividingBy: Self.attosecondsPerSecond)
    let seconds = Int64(truncatingIfNeeded: wholeSeconds)
    // The division truncates toward zero, so `fraction` is 0 or has the sign of `remaining`. When it
    // is positive, `seconds >= 0` and remaining lies strictly between `seconds` and `seconds + 1` s,
    // so it rounds up to `seconds / unitSeconds + 1` units. Otherwise remaining lies in
    // `(seconds - 1, seconds]` s and, as unit boundaries are whole seconds, rounds up to the same count
    // as `seconds` itself: the truncated quotient, plus one if the division left a positive remainder.
    var (roundedUp, rest) = seconds.quotientAndRemainder(dividingBy: unitSeconds)
    if fraction > 0 || rest > 0 { roundedUp += 1 }
    switch reading {
    case .remaining:
      return showsOvertime ? roundedUp : Swift.max(roundedUp, 0)
    case .elapsed:
      // The elapsed time rounded down is minus the remaining time rounded up.
      return Swift.max(-roundedUp, 0)
    }
  }

  /// ``value(remaining:)`` computed on exact 128-bit attosecond counts, for any unit and remaining
  /// time; the reference the Int64 path is tested against.
  @usableFromInline
  package func exactValue(remaining: Duration) -> Duration {
    .multiple(of: unit, count: count(remaining: remaining))
  }

  /// ``nextChange(after:)`` computed on exact 128-bit attosecond counts, for any unit and remaining
  /// time; the reference the Int64 path is tested against. `nil` when the next change, or the value
  /// it changes to, would lie beyond the range `Duration` can hold: within one unit of `Duration`'s
  /// limits the value does not change again.
  @usableFromInline
  package func exactNextChange(after remaining: Duration) -> Duration? {
    let current = count(remaining: remaining)
    switch reading {
    case .remaining:
      if !showsOvertime && current <= 0 { return nil }
      let (next, overflow) = current.subtractingReportingOverflow(1)
      return overflow ? nil : .exactMultiple(of: unit, count: next)
    case .elapsed:
      // The value after the change, `next` units, must be representable too: an elapsed time read
      // past `Duration.max` (the negative side is one second longer) stays at its saturated value.
      let (next, overflow) = current.addingReportingOverflow(1)
      guard !overflow, Duration.exactMultiple(of: unit, count: next) != nil else { return nil }
      return .exactMultiple(of: unit, count: -next)
    }
  }

  private func count(remaining: Duration) -> Int128 {
    switch reading {
    case .remaining:
      let count = remaining.quotient(dividingBy: unit, rounding: .up)
      return showsOvertime ? count : Swift.max(count, 0)
    case .elapsed:
      return Swift.max((Duration.zero - remaining).quotient(dividingBy: unit, rounding: .down), 0)
    }
  }
}

extension CountdownDisplay where Self == RoundedDisplay {
  /// Whole seconds left, rounded up; 0 once finished.
  public static var seconds: RoundedDisplay { RoundedDisplay(unit: .seconds(1)) }
  /// Whole minutes left, rounded up; 0 once finished.
  public static var minutes: RoundedDisplay { RoundedDisplay(unit: .seconds(60)) }
  /// Whole seconds left, rounded up, then negative seconds of overtime after the end.
  public static var secondsWithOvertime: RoundedDisplay { RoundedDisplay(unit: .seconds(1), showsOvertime: true) }
  /// Whole seconds elapsed (a stopwatch), rounded down.
  public static var elapsedSeconds: RoundedDisplay { RoundedDisplay(unit: .seconds(1), reading: .elapsed) }
  /// Whole minutes elapsed (a stopwatch), rounded down.
  public static var elapsedMinutes: RoundedDisplay { RoundedDisplay(unit: .seconds(60), reading: .elapsed) }

  /// The remaining (rounded up) or elapsed (rounded down) time in whole `unit`s.
  public static func rounded(to unit: Duration, reading: RoundedDisplay.Reading = .remaining) -> RoundedDisplay {
    RoundedDisplay(unit: unit, reading: reading)
  }
}
