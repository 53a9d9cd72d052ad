import Foundation

/// Why a `<time>` argument was rejected. The description quotes the text exactly as typed (with
/// invisible and control characters as escapes, `'1\u{200F}0'`), says which part is wrong, and
/// suggests the accepted form nearest to it.
struct TimeSpecError: Error, Equatable, CustomStringConvertible {
  /// What was wrong. Parts and suggestions are text as typed (or as it would be typed).
  enum Problem: Error, Equatable, Sendable {
    /// Not any accepted form. `part`: the first part not understood (`nil` when nothing was);
    /// `suggestion`: the whole text with that part replaced by the nearest word, when that is a time.
    case unrecognized(part: String?, suggestion: String?)
    /// The text stops where more was needed (`10 s 5`).
    case incomplete
    /// A character no form has: a control or invisible character, a numeric character that is not a
    /// decimal digit, a letter of another script. `withoutInvisible`: the text without its invisible
    /// characters, when that is a time.
    case foreignCharacter(Unicode.Scalar, withoutInvisible: String?)
    /// A field out of its range, described (`month 13 is not in 1...12`), and a form to write instead.
    case outOfRange(String, suggestion: String?)
    /// Longer than ``TimeSpec/maximumDuration``.
    case tooLong
    /// Further ahead than ``TimeSpec/maximumDuration``: how far (seconds), and the last instant accepted.
    case tooFar(ahead: TimeInterval, limit: Date)
    /// Hours and minutes with an hour beyond 23 (`25:00`, `33:58`): the two numbers as typed (ASCII).
    case notATimeOfDay(hour: String, minute: String)
    /// A day the month does not have: `February 2027 has 28 days`, and the month's last day.
    case noSuchDay(String, suggestion: String)
    /// Year 0, which the Gregorian calendar does not have.
    case yearZero
    /// A reading of a wall clock that the calendar cannot turn into an instant.
    case noSuchTime
    /// A zone offset beyond ±18:00, as written (`+18:01`).
    case offsetTooLarge(String)
    /// A leading minus: a countdown cannot run to a time before now.
    case negative
    /// Units not from largest to smallest, or one twice; the same total written in order.
    case unitsOutOfOrder(suggestion: String)
    /// A word after a number that is not a unit of time, and the text with the nearest unit.
    case unknownUnit(String, suggestion: String?)
    /// Numbers with slashes that are a date both day first and month first (`01/02/2027`), each as
    /// `YYYY-MM-DD`.
    case ambiguousDate(dayFirst: String, monthFirst: String)
    /// An abbreviation several zones use (`IST`), its meanings, and the text with the first one's zone.
    case ambiguousZone(String, [ZoneAbbreviations.Meaning], suggestion: String)
    /// A zone name this system does not know, and the nearest one it knows.
    case unknownZone(String, suggestion: String?)
    /// A zone and nothing to read on its clock (`UTC`).
    case zoneWithoutTime(String)
    /// A weekday that the date is not on: the date (`YYYY-MM-DD`), the weekday typed, the true one.
    case weekdayMismatch(date: String, typed: String, actual: String)
    /// A year written with two digits, and the text with four.
    case twoDigitYear(suggestion: String)
  }

  /// The text as typed, without surrounding spaces.
  var input: String
  /// What was wrong with it.
  var problem: Problem

  /// An error for `input`.
  init(input: String, problem: Problem) {
    self.input = input
    self.problem = problem
  }

  /// What went wrong and what to write instead.
  var description: String {
    let q = Self.quoted(input)
    switch problem {
    case .unrecognized(nil, let suggestion):
      return "\(q) is not a time.\(Self.didYouMean(suggestion)) Try \(TimeSpec.examples)."
    case .unrecognized(let part?, let suggestion):
      return "\(q) is not a time: \(Self.quoted(part)) is not understood.\(Self.didYouMean(suggestion)) "
        + "Try \(TimeSpec.examples)."
    case .incomplete:
      return "\(q) is not a time: it stops where more was expected. Try \(TimeSpec.examples)."
    case .foreignCharacter(let scalar, let cleaned):
      return "\(q): \(Self.explain(scalar, withoutInvisible: cleaned))"
    case .outOfRange(let detail, let suggestion):
      return "\(q): \(detail). Try \(suggestion.map(Self.escaped) ?? TimeSpec.examples)."
    case .tooLong:
      return "\(q) is longer than \(TimeSpec.limitText), the longest countdown."
    case .tooFar(let ahead, let limit):
      let years = Int(ahead / Double(TimeSpec.year.components.seconds))
      return "\(q) is \(years) years ahead: a countdown runs at most \(TimeSpec.limitText), "
        + "to \(limit.formatted(Date.ISO8601FormatStyle().year().month().day()))."
    case .notATimeOfDay(let hour, let minute):
      return "\(q) is not a time of day: hours and minutes are a clock time, and there is no hour \(hour). "
        + Self.adviceForClock(hour: hour, minute: minute)
    case .noSuchDay(let detail, let suggestion):
      return "\(q): \(detail). Try \(Self.escaped(suggestion))."
    case .yearZero:
      return "\(q): there is no year 0 (the year before 1 is 1 BC). Write the year in full, e.g. 2027-01-01."
    case .noSuchTime:
      return "\(q) does not exist in this calendar and time zone."
    case .offsetTooLarge(let offset):
      return "\(q): the offset \(offset) is beyond ±18:00, the largest a time zone can have. "
        + "Try +02:00 or Z (UTC)."
    case .negative:
      let positive = Self.escaped(String(input.drop { $0 == "-" || $0 == " " }))
      return "\(q) is negative: a countdown runs to a time ahead. Write \(positive) for that much time from now."
    case .unitsOutOfOrder(let suggestion):
      return "\(q): units go from largest to smallest, each once: write \(Self.escaped(suggestion))."
    case .unknownUnit(let word, let suggestion):
      let month =
        word.lowercased().hasPrefix("mo")
        ? " A month has no fixed length: write 30d, or the date it ends (2027-02-01)." : ""
      return "\(q): \(Self.quoted(word)) is not a unit of time.\(Self.didYouMean(suggestion)) Units: "
        + "y (365.25 days), w, d, h, m, s, ms, or as words (2 hours 30 minutes).\(month)"
    case .ambiguousDate(let dayFirst, let monthFirst):
      return "\(q) could be \(Self.spelled(dayFirst)) (day first) or \(Self.spelled(monthFirst)) (month first). "
        + "Write \(dayFirst) or \(monthFirst) (year-month-day), or give --locale to read it as a region does "
        + "(en_GB: day first, en_US: month first)."
    case .ambiguousZone(let word, let meanings, let suggestion):
      let list = meanings.map { "\(Self.offsetText($0.offset)) \($0.name) (\($0.example))" }
      return "\(q): \(word.uppercased()) stands for several zones: \(list.joined(separator: ", ")). "
        + "Write the offset or the zone's name instead, e.g. \(Self.escaped(suggestion))."
    case .unknownZone(let word, let suggestion):
      return "\(q): \(Self.quoted(word)) is not a time zone this system knows.\(Self.didYouMean(suggestion)) "
        + "Write a zone name (Europe/Berlin), an abbreviation (EST, CET) or an offset (+02:00)."
    case .zoneWithoutTime(let zone):
      return "\(q) is a zone without a time: write the time before it, e.g. 18:00 \(Self.escaped(zone))."
    case .weekdayMismatch(let date, let typed, let actual):
      return "\(q): \(Self.spelled(date)) is a \(actual), not a \(typed)."
    case .twoDigitYear(let suggestion):
      return "\(q): write the year with four digits, e.g. \(Self.escaped(suggestion))."
    }
  }
}

extension TimeSpecError {
  /// `'text'` with invisible and control characters escaped, followed by its reading with ASCII
  /// digits when that differs: `'๒๕:๐๐' (25:00)`.
  static func quoted(_ text: String) -> String {
    let shown = escaped(text)
    let ascii = DecimalDigits.asciiDigits(shown)
    return ascii == shown ? "'\(shown)'" : "'\(shown)' (\(ascii))"
  }

  static func escaped(_ text: String) -> String {
    TerminalText.escaped(text)
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " Did you mean \(quoted($0))?" } ?? ""
  }

  /// `±HH:MM`.
  static func offsetText(_ seconds: Int) -> String {
    UTCOffset(sign: seconds < 0 ? -1 : 1, hours: abs(seconds) / 3_600, minutes: abs(seconds) % 3_600 / 60).text
  }

  /// `2027-02-01` as `1 February 2027`.
  private static func spelled(_ iso: String) -> String {
    let parts = iso.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1...12).contains(parts[1]) else { return iso }
    return "\(parts[2]) \(TimeSpecParser.monthNames[parts[1] - 1].capitalized) \(parts[0])"
  }

  /// What `hour:minute` with an hour beyond 23 could have meant.
  private static func adviceForClock(hour: String, minute: String) -> String {
    if hour == "24" {
      return minute == "00"
        ? "The end of the day is midnight (or 0:00); for 24 hours from now write 24h."
        : "\(minute) minutes past midnight is 0:\(minute)."
    }
    let minutes = minute == "00" ? "\(hour)m" : "\(hour)m\(minute)s"
    let hours = minute == "00" ? "\(hour)h" : "\(hour)h\(minute)m"
    return "For \(hour) minutes \(minute == "00" ? "" : "\(minute) seconds ")write \(minutes); "
      + "for \(hour) hours \(minute == "00" ? "" : "\(minute) minutes ")write \(hours)."
  }

  /// What is wrong with `scalar`, and what to do.
  private static func explain(_ scalar: Unicode.Scalar, withoutInvisible cleaned: String?) -> String {
    let properties = scalar.properties
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let name =
      properties.name ?? properties.nameAlias ?? "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)"
    let shown = escaped(String(scalar))
    if TerminalText.isInvisible(scalar) {
      let fix = cleaned.map { "Without it: \(quoted($0))." } ?? "Delete it and type the time again."
      return "\(shown) (\(name)) is an invisible or control character. \(fix)"
    }
    if properties.numericType != nil {
      return "'\(shown)' (\(name)) is not a decimal digit. Digits of any script count (๑๒:๓๐ is 12:30), "
        + "but not ², ½, Ⅻ or ①."
    }
    if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
      || properties.generalCategory == .spacingMark
    {
      return "\(shown) (\(name)) is a combining mark; a time has none. Try \(TimeSpec.examples)."
    }
    return "'\(shown)' (\(name)) is in no form of <time>, which is written with digits (of any script), Latin "
      + "letters and : - / . +. Try \(TimeSpec.examples)."
  }
}
