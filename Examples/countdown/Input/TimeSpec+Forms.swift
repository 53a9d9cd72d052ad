internal import Foundation

extension TimeSpec {
  /// One line of the table of accepted forms: examples (as typed in a shell) and how they are read.
  struct FormExample: Sendable {
    /// The examples, each one `<time>` argument, quoted for a shell when it has spaces.
    var examples: [String]
    /// How they are read.
    var reading: String
  }

  /// Every form of `<time>`, with examples: the table of `countdown help run` and of README.md
  /// (tests run each example and check that the README lists the same ones).
  static let forms: [FormExample] = [
    FormExample(examples: ["90s", "25m", "1h30m", "'1h 5m 30s'"], reading: "a duration: units, largest first"),
    FormExample(examples: ["'2 hours, 30 minutes'", "1.5h"], reading: "units as words; fractions"),
    FormExample(examples: ["500ms", "2w", "1y"], reading: "ms, weeks; a year is 365.25 days"),
    FormExample(examples: ["10", "2.5"], reading: "seconds"),
    FormExample(examples: ["1:30:00", "0:05:00"], reading: "H:MM:SS is a duration"),
    FormExample(examples: ["18:00", "9:30"], reading: "H:MM: the next time it comes"),
    FormExample(examples: ["6pm", "6:30pm", "6p", "'6 p.m.'", "6:30:15pm"], reading: "12-hour clock times"),
    FormExample(examples: ["noon", "midnight"], reading: "12:00 and 0:00"),
    FormExample(examples: ["'18:00 UTC'", "18:00Z", "'6pm UTC'"], reading: "in UTC"),
    FormExample(examples: ["'18:00 +02:00'", "'9:00 -0530'"], reading: "at an offset (up to ±18:00)"),
    FormExample(examples: ["'18:00 EST'", "'9:00 CET'"], reading: "abbreviations: fixed offsets"),
    FormExample(examples: ["'18:00 Europe/Berlin'"], reading: "in a zone of the tz database"),
    FormExample(examples: ["tomorrow", "'tomorrow 9:00'", "'today 6pm'"], reading: "a day (alone: its start)"),
    FormExample(examples: ["friday", "fri"], reading: "the start of the next Friday"),
    FormExample(examples: ["'fri 14:00'", "'monday at 9am'"], reading: "the next such day, time ahead"),
    FormExample(examples: ["2027-01-01", "2027/01/01"], reading: "a date: local midnight"),
    FormExample(examples: ["'2027-01-01 9:30'", "'2027-01-01 2pm'"], reading: "a date and a local time"),
    FormExample(examples: ["2027-01-01T14:00", "20270101T140000Z"], reading: "ISO 8601: local, or UTC with Z"),
    FormExample(examples: ["2026-12-31T23:59:59Z"], reading: "an instant (ISO 8601)"),
    FormExample(examples: ["'2027-01-01 14:00 +02:00'"], reading: "a date and time at an offset"),
    FormExample(examples: ["'Jan 1 2027'", "'1 Jan 2027'"], reading: "dates with a month's name"),
    FormExample(examples: ["'January 1, 2027 14:00'"], reading: "... and a time"),
    FormExample(examples: ["'Dec 25'", "'25 december 18:00'"], reading: "without a year: the next one"),
    FormExample(examples: ["13/02/2027", "02/13/2027"], reading: "the reading that is a date"),
    FormExample(examples: ["01.02.2027"], reading: "dots: day first (1 February)"),
  ]

  /// A few accepted forms, for error messages.
  static let examples =
    "25m, 1h30m, 1:30:00 (durations), 18:00, 6:30pm, 'fri 14:00' (clock times), '2027-01-01 14:00 UTC' (a date); "
    + "countdown help run lists every form"

  /// The longest countdown, in words.
  static let limitText = "36525 days (100 years of 365.25 days)"

  /// ``forms`` as two columns, for help; every line fits 78 columns, so that help does not wrap it.
  static var formsTable: String {
    let rows = forms.map { ($0.examples.joined(separator: " "), $0.reading) }
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }
}
