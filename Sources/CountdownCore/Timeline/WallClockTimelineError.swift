public import Foundation

/// A reason a ``WallClockTimeline`` or a ``ServerTimeEstimator`` refused its input.
///
/// Every case carries what was wrong; ``description`` says what to do about it.
public enum WallClockTimelineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which date a date error is about.
  public enum DateRole: Sendable, Hashable, CustomStringConvertible {
    /// The wall-clock date of a timeline's anchor pair.
    case anchorDate
    /// A date converted to an instant with ``WallClockTimeline/instant(for:)``.
    case targetDate
    /// The date a server reported in a ``ServerTimeEstimator/Sample``.
    case serverDate

    /// The role in words, as used in error messages.
    public var description: String {
      switch self {
      case .anchorDate: "anchor date"
      case .targetDate: "target date"
      case .serverDate: "server date"
      }
    }
  }

  /// The date is NaN or infinite (its `timeIntervalSinceReferenceDate` is not a finite number).
  case nonFiniteDate(DateRole)
  /// The date is finite but outside ``WallClockTimeline/supportedDates`` (±100,000 years around 2001-01-01).
  case dateOutOfRange(DateRole, Date)
  /// The reference offset is larger in magnitude than ``WallClockTimeline/maximumReferenceOffset`` (200,000 years).
  ///
  /// An offset too large for `Duration` is reported as `Duration`'s extreme value.
  case referenceOffsetOutOfRange(Duration)
  /// A server-time sample's `received` instant precedes its `sent` instant; the payload is the
  /// (negative) round trip.
  case receivedBeforeSent(roundTrip: Duration)
  /// A server-time sample's round trip exceeds the estimator's `maximumRoundTrip`.
  case roundTripTooLong(Duration, maximum: Duration)

  /// What went wrong and what to do about it.
  public var description: String {
    switch self {
    case .nonFiniteDate(let role):
      return "The \(role) is not a finite time (NaN or infinity). It usually comes from a failed parse or a "
        + "division by zero upstream; fix the source of the date. To mean \"never\", use Date.distantFuture."
    case .dateOutOfRange(let role, let date):
      return "The \(role) lies \(date.timeIntervalSinceReferenceDate) seconds from 2001-01-01, outside the "
        + "supported range of ±\(TimelineLimits.dateSeconds) seconds (100,000 years). Check the unit of the "
        + "value (milliseconds read as seconds?). To mean \"never\" or \"always\", use Date.distantFuture or "
        + "Date.distantPast, which are inside the range."
    case .referenceOffsetOutOfRange(let offset):
      return "The reference offset \(offset) exceeds the supported ±\(TimelineLimits.referenceOffset) "
        + "(200,000 years); a reference clock that far from the local clock means the offset was computed "
        + "from bad data. Check the server date and the instants of the sample it came from."
    case .receivedBeforeSent(let roundTrip):
      let early = Duration(attosecondCount: -roundTrip.attosecondCount)
      return "The server-time sample was received \(early) before it was sent. Take `sent` from the monotonic "
        + "clock just before sending the request and `received` from the same clock just after the response "
        + "arrives."
    case .roundTripTooLong(let roundTrip, let maximum):
      return "The server-time sample took \(roundTrip) for its round trip, more than the maximum of \(maximum); "
        + "its error bound (half the round trip) is too loose to use. Retry the request, or raise "
        + "maximumRoundTrip if the network is always this slow."
    }
  }
}

extension WallClockTimelineError: LocalizedError {
  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
