import Foundation

/// What the user asked to count to, read from a `<time>` argument: a length of time, or a reading
/// of a wall clock (a time of day, a day, a date, in a zone).
///
/// Parsing is pure (``init(parsing:dateOrder:)``); turning a wall-clock reading into a deadline needs
/// the current date and the local calendar, which ``resolved(now:calendar:)`` takes as parameters so
/// that it can be tested without a clock.
struct TimeSpec: Equatable, Sendable {
  /// What the text stands for.
  enum Form: Equatable, Sendable {
    /// A length of time from now: `90s`, `25m`, `1h30m`, `1:30:00`, `10` (seconds), `1y`.
    case duration(Duration)
    /// A reading of a wall clock: `18:00`, `6pm UTC`, `friday`, `2027-01-01 14:00 Europe/Berlin`.
    case wallClock(WallClockSpec)
  }

  /// The text as typed, without surrounding spaces (for error messages).
  var input: String
  /// What it stands for.
  var form: Form

  /// A specification of `form`, typed as `input`.
  init(input: String, form: Form) {
    self.input = input
    self.form = form
  }

  /// The furthest a countdown runs: 36,525 days (100 years of 365.25 days) from its start, for a
  /// duration and for a date alike. The engine counts exactly to well beyond it (292 years).
  static let maximumDuration = Duration.seconds(36_525 * 86_400)

  /// The length of a year in a duration (`1y`): 365.25 days, as termdown counts it.
  static let year = Duration.seconds(36_525 * 864)

  /// What a resolved specification counts to.
  enum Target: Equatable, Sendable {
    /// A length of time, measured on the monotonic clock from the start.
    case duration(Duration)
    /// A wall-clock deadline.
    case deadline(Date)
  }

  /// The target this specification stands for at `now`, reading wall clocks without a zone in
  /// `calendar`'s time zone (see ``WallClockSpec/deadline(now:calendar:)`` for the rules).
  ///
  /// - Throws: ``TimeSpecError`` when the reading does not exist or is further than
  ///   ``maximumDuration`` from `now`.
  func resolved(now: Date, calendar: Calendar) throws(TimeSpecError) -> Target {
    switch form {
    case .duration(let duration):
      return .duration(duration)
    case .wallClock(let spec):
      guard let date = spec.deadline(now: now, calendar: calendar) else {
        throw TimeSpecError(input: input, problem: .noSuchTime)
      }
      let limit = now.addingTimeInterval(Double(Self.maximumDuration.components.seconds))
      guard date <= limit else {
        throw TimeSpecError(input: input, problem: .tooFar(ahead: date.timeIntervalSince(now), limit: limit))
      }
      return .deadline(date)
    }
  }
}
