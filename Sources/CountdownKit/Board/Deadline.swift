public import Foundation

/// What a countdown counts to, as a store of deadlines (a database row, a server, a push) describes it:
/// a date or a duration, never an instant of the engine's clock. A ``BoardRow`` carries one; the
/// `countdown` command's SQLite rows and CountdownPostgres's rows are read into one.
///
/// ```swift
/// let fitting = Deadline.until(order.fittingEndsAt)
/// let walkIn = Deadline.after(.seconds(480))
/// let stored = try Deadline(endsAt: row.endsAt, pausedRemaining: row.pausedSeconds)
/// ```
public enum Deadline: Hashable, Sendable {
  /// Counts down to a wall-clock date, and follows the date when the wall clock is changed.
  case until(Date)
  /// Counts down this much time from the moment it is applied (negative: already over by that much),
  /// on the engine's monotonic clock: it ends that long after, whatever the wall clock does.
  case after(Duration)
  /// Paused with this much time left (negative: paused in overtime).
  case paused(remaining: Duration)
}

extension Deadline {
  /// The dates a stored deadline may count to, 1970-01-01 to 2200-01-01: a date outside is taken for
  /// garbage (a unit mix-up, `infinity`, a corrupt value), not counted to.
  public static let plausibleDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 7_258_118_400)

  /// The longest time a stored paused deadline may have left: 100 years of 365.25 days, in seconds.
  public static let longestPausedSeconds: Double = 3_155_760_000

  /// A deadline as a store keeps it: paused with `pausedRemaining` seconds left when that is present
  /// (rounded to the millisecond), otherwise counting to `endsAt`.
  ///
  /// - Throws: ``InvalidDeadline`` when the values cannot be counted to: no date and no paused time,
  ///   a date outside ``plausibleDates``, a paused time that is negative, not finite or longer than
  ///   ``longestPausedSeconds``.
  public init(endsAt: Date?, pausedRemaining: Double?) throws(InvalidDeadline) {
    if let pausedRemaining {
      guard pausedRemaining.isFinite, (0...Self.longestPausedSeconds).contains(pausedRemaining) else {
        throw InvalidDeadline.pausedOutOfRange(pausedRemaining)
      }
      self = .paused(remaining: .milliseconds(Int64((pausedRemaining * 1_000).rounded())))
      return
    }
    guard let endsAt else { throw InvalidDeadline.noEnd }
    guard Self.isPlausible(endsAt) else { throw InvalidDeadline.endOutOfRange(endsAt) }
    self = .until(endsAt)
  }

  /// Whether `date` is one a stored deadline may count to (finite, within ``plausibleDates``).
  public static func isPlausible(_ date: Date) -> Bool {
    date.timeIntervalSince1970.isFinite && plausibleDates.contains(date)
  }
}

/// Why stored values are not a ``Deadline``: the row they come from is shown or logged as invalid,
/// never counted to.
public enum InvalidDeadline: Error, Hashable, Sendable, CustomStringConvertible {
  /// Neither an end date nor a paused time left.
  case noEnd
  /// An end date outside ``Deadline/plausibleDates``.
  case endOutOfRange(Date)
  /// A paused time left (seconds) that is negative, not finite or longer than
  /// ``Deadline/longestPausedSeconds``.
  case pausedOutOfRange(Double)
  /// A value the store could not read as a date or a number (the store's message, such as
  /// "ends_at is not a date: 'tomorrow'").
  case unreadable(String)

  /// What is wrong, in words, such as "the end date is out of range: 2500-01-01T00:00:00Z".
  public var description: String {
    switch self {
    case .noEnd: "no end date and no paused time left"
    case .endOutOfRange(let date): "the end date is out of range: \(Self.describe(date))"
    case .pausedOutOfRange(let seconds): "the paused time left is out of range: \(seconds) s"
    case .unreadable(let message): message
    }
  }

  /// `date` in ISO 8601 from the year 1583 to 9999, else in seconds since 1970 (Foundation's
  /// `description` is unavailable for far dates such as 9999-12-31 and traps on an infinite one).
  private static func describe(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    guard (-12_212_553_600...253_402_300_799).contains(seconds) else { return "\(seconds) s from 1970" }
    return date.formatted(.iso8601)
  }
}
