import Foundation

/// A wall-clock time as an exact instant: attoseconds since 2001-01-01 (the `Date` reference date).
///
/// Lets the generic countdown code run directly on wall-clock dates (a deadline `Date` with no
/// monotonic clock in sight) while every step stays exact; `Date`s are converted at the edges only.
struct WallClockInstant: InstantProtocol {
  /// The time since 2001-01-01.
  var sinceReferenceDate: Duration

  init(sinceReferenceDate: Duration) {
    self.sinceReferenceDate = sinceReferenceDate
  }

  /// `date` as an exact instant.
  ///
  /// - Throws: ``WallClockTimelineError`` with `role` when `date` is not finite or outside
  ///   ``WallClockTimeline/supportedDates``.
  init(_ date: Date, as role: WallClockTimelineError.DateRole) throws(WallClockTimelineError) {
    sinceReferenceDate = Duration(attosecondCount: try date.attosecondsSinceReferenceDate(as: role))
  }

  /// The timeline on which an instant's date is the instant itself (no reference offset).
  static var identityTimeline: WallClockTimeline<WallClockInstant> {
    do {
      return try WallClockTimeline(
        anchorDate: Date(timeIntervalSinceReferenceDate: 0), anchorInstant: WallClockInstant(sinceReferenceDate: .zero))
    } catch {
      preconditionFailure("Internal inconsistency: the reference date is outside the supported dates: \(error)")
    }
  }

  func advanced(by duration: Duration) -> WallClockInstant {
    WallClockInstant(sinceReferenceDate: sinceReferenceDate + duration)
  }

  func duration(to other: WallClockInstant) -> Duration {
    other.sinceReferenceDate - sinceReferenceDate
  }

  static func < (lhs: WallClockInstant, rhs: WallClockInstant) -> Bool {
    lhs.sinceReferenceDate < rhs.sinceReferenceDate
  }
}

extension Date {
  /// The earliest `Date` whose attosecond count (as ``attosecondsSinceReferenceDate(as:)`` reads
  /// it) is `attoseconds` or later: a change listed at this date has happened by then.
  static func earliest(atOrAfter attoseconds: Int128) -> Date {
    var date = Date(attosecondsSinceReferenceDate: attoseconds)
    while let read = try? date.attosecondsSinceReferenceDate(as: .targetDate), read < attoseconds {
      date = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
    }
    return date
  }
}
