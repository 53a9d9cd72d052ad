import Foundation

// The ranges a timeline accepts, and exact conversions between `Date` and attoseconds.
//
// A `Date` is a `Double` of seconds since 2001-01-01. The timeline does its arithmetic on exact
// 128-bit attosecond counts and converts at the edges, so every step is monotonic and the only
// rounding is the unavoidable one into a `Double`.

/// The limits a ``WallClockTimeline`` enforces on its inputs.
enum TimelineLimits {
  /// How far a date may lie from 2001-01-01: 100,000 Julian years of 365.25 days.
  ///
  /// Wide enough for `Date.distantPast` and `Date.distantFuture` (about ±2,000 years), which apps
  /// use as "always" and "never"; narrow enough that no sum of dates and offsets can overflow
  /// `Duration`, and that a value in the wrong unit (milliseconds read as seconds) is caught.
  static let dateSeconds: Int64 = 3_155_760_000_000

  /// How far a reference clock may be from the local clock: the distance between the two ends of
  /// the date range, so any two supported dates give a supported offset.
  static let referenceOffset = Duration.seconds(2 * dateSeconds)
}

extension Date {
  /// This date as attoseconds since 2001-01-01, checked against ``TimelineLimits/dateSeconds``.
  ///
  /// Exact up to the rounding of the sub-second part to the attosecond, and monotonic.
  func attosecondsSinceReferenceDate(as role: WallClockTimelineError.DateRole) throws(WallClockTimelineError) -> Int128
  {
    let seconds = timeIntervalSinceReferenceDate
    guard seconds.isFinite else { throw .nonFiniteDate(role) }
    let limit = Double(TimelineLimits.dateSeconds)
    guard -limit <= seconds, seconds <= limit else { throw .dateOutOfRange(role, self) }
    // Splitting at the whole second is exact for a `Double`; only the fraction is scaled. Both parts fit
    // an `Int64` (at most `dateSeconds`, and at most 10^18): converted through it, exactly, with the
    // standard library's concrete conversions (its generic ones between `Int128` and `Double` cost about
    // half a microsecond a date, which a board that loads a million dates pays in full).
    let whole = seconds.rounded(.down)
    let fraction = ((seconds - whole) * 1e18).rounded()
    return Int128(Int64(whole)) * attosecondsPerSecond + Int128(Int64(fraction))
  }

  /// The date `attoseconds` after 2001-01-01, rounded to the nearest `Date`.
  ///
  /// Monotonic: a larger count never gives an earlier date.
  init(attosecondsSinceReferenceDate attoseconds: Int128) {
    var (whole, fraction) = attoseconds.quotientAndRemainder(dividingBy: attosecondsPerSecond)
    if fraction < 0 {
      whole -= 1
      fraction += attosecondsPerSecond
    }
    self.init(timeIntervalSinceReferenceDate: Double(whole) + Double(fraction) / Double(attosecondsPerSecond))
  }
}

extension Duration {
  /// Whether this duration's magnitude is at most ``TimelineLimits/referenceOffset``.
  var isSupportedReferenceOffset: Bool {
    let limit = TimelineLimits.referenceOffset.attosecondCount
    return -limit <= attosecondCount && attosecondCount <= limit
  }
}
