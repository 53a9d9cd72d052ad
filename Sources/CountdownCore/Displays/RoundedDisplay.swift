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

  /// A display rounding to `unit`.
  ///
  /// - Precondition: `unit` is positive.
  public init(unit: Duration, reading: Reading = .remaining, showsOvertime: Bool = false) {
    precondition(unit > .zero, "RoundedDisplay needs a positive unit, got \(unit)")
    self.unit = unit
    self.reading = reading
    self.showsOvertime = showsOvertime
  }

  /// The remaining time rounded up to the unit (zero or, with overtime, negative after the end), or
  /// the elapsed time rounded down to the unit (zero before the end).
  public func value(remaining: Duration) -> Duration {
    .multiple(of: unit, count: count(remaining: remaining))
  }

  /// The next remaining time at which the rounded value changes.
  public func nextChange(after remaining: Duration) -> Duration? {
    let current = count(remaining: remaining)
    switch reading {
    case .remaining:
      if !showsOvertime && current <= 0 { return nil }
      return .multiple(of: unit, count: current - 1)
    case .elapsed:
      return .multiple(of: unit, count: -(current + 1))
    }
  }

  /// One unit.
  public var period: Duration? { unit }

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
