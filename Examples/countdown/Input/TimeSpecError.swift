/// Why a `<time>` argument was rejected; the description says what is accepted instead.
public struct TimeSpecError: Error, Equatable, CustomStringConvertible {
  /// What was wrong.
  public enum Problem: Error, Equatable, Sendable {
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
    /// A zone offset beyond ±18:00, as written (`+18:01`).
    case offsetTooLarge(String)
    /// A leading minus: a countdown cannot run to a time before now.
    case negative
  }

  /// The text as typed.
  public var input: String
  /// What was wrong with it.
  public var problem: Problem

  /// An error for `input`.
  public init(input: String, problem: Problem) {
    self.input = input
    self.problem = problem
  }

  /// `'input'`, followed by its reading with ASCII digits when that differs: `'๒๕:๐๐' (25:00)`.
  private var quoted: String {
    let shown = TerminalText.sanitized(input)
    let ascii = DecimalDigits.asciiDigits(shown)
    return ascii == shown ? "'\(shown)'" : "'\(shown)' (\(ascii))"
  }

  /// The input without its leading minus.
  private var positive: String {
    TerminalText.sanitized(String(input.drop { $0 == "-" || $0 == " " }))
  }

  /// What went wrong and what to write instead.
  public var description: String {
    switch problem {
    case .unrecognized:
      "\(quoted) is not a time. Try \(TimeSpec.examples)."
    case .outOfRange(let detail):
      "\(quoted): \(detail). Try \(TimeSpec.examples)."
    case .tooLong:
      "\(quoted) is too long: the longest countdown is 36525 days (about 100 years)."
    case .notATimeOfDay:
      "\(quoted) is not a time of day (H:MM means a clock time). For a duration write e.g. 25m or 0:25:00."
    case .noSuchTime:
      "\(quoted) does not exist in this calendar and time zone."
    case .offsetTooLarge(let offset):
      "\(quoted): the offset \(offset) is beyond ±18:00, the largest a time zone can have. Try +02:00 or Z (UTC)."
    case .negative:
      "\(quoted) is negative: a countdown runs to a time ahead. Write \(positive) for that much time from now."
    }
  }
}
