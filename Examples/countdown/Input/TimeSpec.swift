public import Foundation

/// What the user asked to count to, as typed: a length of time, a time of day, or a date.
///
/// Parsing is pure (``init(parsing:)``); turning a time of day or a date without a zone into a
/// deadline needs the current date and a calendar, which ``resolved(now:calendar:)`` takes as
/// parameters so that it can be tested without a clock.
public enum TimeSpec: Equatable, Sendable {
  /// A length of time from now: `90s`, `25m`, `1h 30m`, `1:30:00`, `10` (seconds).
  case duration(Duration)
  /// The next time the wall clock shows this time of day: `18:00`, `6:30pm`.
  case timeOfDay(hour: Int, minute: Int, second: Int)
  /// An instant: a date with a zone, `2026-12-31T23:59:59Z`, `2027-01-01 14:00 +02:00`.
  case date(Date)
  /// A date and time of day in the local time zone: `2026-12-31T23:59`, or `2027-01-01` (midnight).
  case localDate(DateComponents)

  /// The longest duration accepted: 36,525 days (about 100 years).
  public static let maximumDuration = Duration.seconds(100 * 36_525 * 864)

  /// A few accepted forms, for error messages and help.
  public static let examples =
    "25m, 90s, 1h30m, '1h 5m', 1:30:00 or 10 (durations), 18:00 or 6pm (time of day), 2027-01-01 14:00 UTC"

  /// What a resolved specification counts to.
  public enum Target: Equatable, Sendable {
    /// A length of time, measured on the monotonic clock from the start.
    case duration(Duration)
    /// A wall-clock deadline.
    case deadline(Date)
  }

  /// The target this specification stands for at `now`: a time of day is today if it is still
  /// ahead, tomorrow otherwise; a local date is read in `calendar`'s time zone.
  public func resolved(now: Date, calendar: Calendar) throws(TimeSpecError) -> Target {
    switch self {
    case .duration(let duration):
      return .duration(duration)
    case .date(let date):
      return .deadline(date)
    case .timeOfDay(let hour, let minute, let second):
      let wanted = DateComponents(hour: hour, minute: minute, second: second)
      // `.nextTime` moves a time skipped by a daylight-saving jump to the first one after the gap.
      guard
        let date = calendar.nextDate(after: now, matching: wanted, matchingPolicy: .nextTime, direction: .forward)
      else { throw TimeSpecError(input: Self.describe(hour, minute, second), problem: .noSuchTime) }
      return .deadline(date)
    case .localDate(let components):
      guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
        throw TimeSpecError(input: Self.describe(components), problem: .noSuchTime)
      }
      return .deadline(date)
    }
  }

  private static func describe(_ hour: Int, _ minute: Int, _ second: Int) -> String {
    second == 0 ? "\(hour):\(twoDigits(minute))" : "\(hour):\(twoDigits(minute)):\(twoDigits(second))"
  }

  private static func describe(_ components: DateComponents) -> String {
    let fields = [components.year, components.month, components.day, components.hour, components.minute]
    let text = fields.map { $0.map(twoDigits) ?? "?" }
    return "\(text[0])-\(text[1])-\(text[2]) \(text[3]):\(text[4])"
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
