import Foundation

/// What the user asked to count to, as typed: a length of time, a time of day, or a date.
///
/// Parsing is pure (``init(parsing:)``); turning a time of day or a date without a zone into a
/// deadline needs the current date and a calendar, which ``resolved(now:calendar:)`` takes as
/// parameters so that it can be tested without a clock.
enum TimeSpec: Equatable, Sendable {
  /// A length of time from now: `90s`, `25m`, `1h30m`, `1:30:00`.
  case duration(Duration)
  /// The next time the wall clock shows this time of day: `18:00`, `6:30pm`.
  case timeOfDay(hour: Int, minute: Int, second: Int)
  /// An instant: an ISO 8601 date with `Z` or an offset, `2026-12-31T23:59:59Z`.
  case date(Date)
  /// A date and time of day in the local time zone: `2026-12-31T23:59` or `2026-12-31`.
  case localDate(DateComponents)

  /// The longest duration accepted: about 100 years.
  static let maximumDuration = Duration.seconds(100 * 36_525 * 864)

  /// A few accepted forms, for error messages and help.
  static let examples = "25m, 90s, 1h30m, 1:30:00 (durations), 18:00 or 6pm (time of day), 2026-12-31T23:59:59Z"

  /// What a resolved specification counts to.
  enum Target: Equatable, Sendable {
    /// A length of time, measured on the monotonic clock from the start.
    case duration(Duration)
    /// A wall-clock deadline.
    case deadline(Date)
  }

  /// The target this specification stands for at `now`: a time of day is today if it is still
  /// ahead, tomorrow otherwise; a local date is read in `calendar`'s time zone.
  func resolved(now: Date, calendar: Calendar) throws(TimeSpecError) -> Target {
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
        throw TimeSpecError(input: "\(components)", problem: .noSuchTime)
      }
      return .deadline(date)
    }
  }

  private static func describe(_ hour: Int, _ minute: Int, _ second: Int) -> String {
    second == 0 ? "\(hour):\(twoDigits(minute))" : "\(hour):\(twoDigits(minute)):\(twoDigits(second))"
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}

/// Why a `<time>` argument was rejected; the description says what is accepted instead.
struct TimeSpecError: Error, Equatable, CustomStringConvertible {
  /// What was wrong.
  enum Problem: Equatable, Sendable {
    /// Not any of the accepted forms.
    case unrecognized
    /// A number out of range, e.g. minute 75 or month 13.
    case outOfRange(String)
    /// Longer than ``TimeSpec/maximumDuration``.
    case tooLong
    /// `25:00`: two numbers with a colon are a time of day, and 25 is no hour.
    case notATimeOfDay
    /// A time of day or date that the calendar cannot produce.
    case noSuchTime
  }

  /// The text as typed.
  var input: String
  /// What was wrong with it.
  var problem: Problem

  var description: String {
    switch problem {
    case .unrecognized:
      "'\(input)' is not a time. Try \(TimeSpec.examples)."
    case .outOfRange(let detail):
      "'\(input)': \(detail). Try \(TimeSpec.examples)."
    case .tooLong:
      "'\(input)' is too long: the longest countdown is 36525 days (about 100 years)."
    case .notATimeOfDay:
      "'\(input)' is not a time of day (H:MM means a clock time). For a duration write e.g. 25m or 0:25:00."
    case .noSuchTime:
      "'\(input)' does not exist in this calendar and time zone."
    }
  }
}
