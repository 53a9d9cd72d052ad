import Foundation
import TestSupport
import Testing

@testable import CountdownCommandLine

/// The `<time>` grammar, read at an explicit "now" in an explicit zone: Wednesday 2026-03-04 10:00 in
/// New York (15:00 UTC), four days before the clocks there go forward.
@Suite("Parsing <time>")
struct TimeSpecTests {
  static let newYork = calendar("America/New_York")
  static let now = date("2026-03-04T15:00:00Z")

  static let durationCases: [(String, Duration)] = [
    ("90s", .seconds(90)),
    ("25m", .seconds(1_500)),
    ("1h30m", .seconds(5_400)),
    ("1h 30m", .seconds(5_400)),
    (" 1H30M ", .seconds(5_400)),
    ("2d3h", .seconds(2 * 86_400 + 3 * 3_600)),
    ("1h30m15s", .seconds(5_415)),
    ("1.5h", .seconds(5_400)),
    ("0.1s", .milliseconds(100)),
    ("500ms", .milliseconds(500)),
    ("25min", .seconds(1_500)),
    ("10sec", .seconds(10)),
    ("90", .seconds(90)),
    ("2.5", .milliseconds(2_500)),
    ("0s", .zero),
    ("1:30:00", .seconds(5_400)),
    ("0:05:00", .seconds(300)),
    ("100:00:00", .seconds(360_000)),
    ("1h 5m 30s", .seconds(3_930)),
    ("1 h 5 m", .seconds(3_900)),
    ("2 hours 30 minutes", .seconds(9_000)),
    ("2 hours, 30 minutes", .seconds(9_000)),
    ("1 hour and 30 minutes", .seconds(5_400)),
    ("1hr 20mins 5secs", .seconds(4_805)),
    ("3 days", .seconds(259_200)),
    ("250 milliseconds", .milliseconds(250)),
    ("1.000000000000000001s", Duration(secondsComponent: 1, attosecondsComponent: 1)),
    ("0.5d", .seconds(43_200)),
    ("0.333333333333333333d", Duration(secondsComponent: 28_799, attosecondsComponent: 999_999_999_999_971_200)),
    ("36525d", .seconds(3_155_760_000)),
    ("1y", .seconds(31_557_600)),
    ("1 year", .seconds(31_557_600)),
    ("100y", .seconds(3_155_760_000)),
    ("2w", .seconds(1_209_600)),
    ("1y 2w 3d", .seconds(31_557_600 + 17 * 86_400)),
    ("000000000000000000000000000000000010s", .seconds(10)),
  ]

  @Test("Durations", arguments: durationCases)
  func durations(text: String, expected: Duration) throws {
    #expect(try TimeSpec(parsing: text).form == .duration(expected))
  }

  /// What each example of the table of forms (help and README) counts to at ``now`` in New York.
  static let formExpectations: [String: String] = [
    "90s": "90", "25m": "1500", "1h30m": "5400", "1h 5m 30s": "3930", "2 hours, 30 minutes": "9000",
    "1.5h": "5400", "500ms": "0.5", "2w": "1209600", "1y": "31557600", "10": "10", "2.5": "2.5",
    "1:30:00": "5400", "0:05:00": "300",
    "18:00": "2026-03-04T18:00:00-05:00", "9:30": "2026-03-05T09:30:00-05:00",
    "6pm": "2026-03-04T18:00:00-05:00", "6:30pm": "2026-03-04T18:30:00-05:00", "6p": "2026-03-04T18:00:00-05:00",
    "6 p.m.": "2026-03-04T18:00:00-05:00", "6:30:15pm": "2026-03-04T18:30:15-05:00",
    "noon": "2026-03-04T12:00:00-05:00", "midnight": "2026-03-05T00:00:00-05:00",
    "18:00 UTC": "2026-03-04T18:00:00Z", "18:00Z": "2026-03-04T18:00:00Z", "6pm UTC": "2026-03-04T18:00:00Z",
    "18:00 +02:00": "2026-03-04T16:00:00Z", "9:00 -0530": "2026-03-05T14:30:00Z",
    "18:00 EST": "2026-03-04T23:00:00Z", "9:00 CET": "2026-03-05T08:00:00Z",
    "18:00 Europe/Berlin": "2026-03-04T17:00:00Z",
    "tomorrow": "2026-03-05T00:00:00-05:00", "tomorrow 9:00": "2026-03-05T09:00:00-05:00",
    "today 6pm": "2026-03-04T18:00:00-05:00",
    "friday": "2026-03-06T00:00:00-05:00", "fri": "2026-03-06T00:00:00-05:00",
    "fri 14:00": "2026-03-06T14:00:00-05:00",
    // The clocks go forward on Sunday the 8th: Monday is on EDT.
    "monday at 9am": "2026-03-09T09:00:00-04:00",
    "2027-01-01": "2027-01-01T00:00:00-05:00", "2027/01/01": "2027-01-01T00:00:00-05:00",
    "2027-01-01 9:30": "2027-01-01T09:30:00-05:00", "2027-01-01 2pm": "2027-01-01T14:00:00-05:00",
    "2027-01-01T14:00": "2027-01-01T14:00:00-05:00", "20270101T140000Z": "2027-01-01T14:00:00Z",
    "2026-12-31T23:59:59Z": "2026-12-31T23:59:59Z", "2027-01-01 14:00 +02:00": "2027-01-01T12:00:00Z",
    "Jan 1 2027": "2027-01-01T00:00:00-05:00", "1 Jan 2027": "2027-01-01T00:00:00-05:00",
    "January 1, 2027 14:00": "2027-01-01T14:00:00-05:00",
    "Dec 25": "2026-12-25T00:00:00-05:00", "25 december 18:00": "2026-12-25T18:00:00-05:00",
    "13/02/2027": "2027-02-13T00:00:00-05:00", "02/13/2027": "2027-02-13T00:00:00-05:00",
    "01.02.2027": "2027-02-01T00:00:00-05:00",
  ]

  /// The examples of the table of forms, as typed in a shell (without its quotes).
  static let formExamples = TimeSpec.forms.flatMap(\.examples).map { $0.replacing("'", with: "") }

  @Test("Every example of the table of forms counts to what the table says", arguments: formExamples)
  func formExample(text: String) throws {
    let expected = try #require(Self.formExpectations[text], "no expected value for the example \(text)")
    let target = try TimeSpec(parsing: text).resolved(now: Self.now, calendar: Self.newYork)
    if let seconds = Double(expected) {
      #expect(target == .duration(.milliseconds(Int64(seconds * 1_000))))
    } else {
      #expect(target == .deadline(Self.date(expected)))
    }
  }

  @Test("The table of forms is listed whole in README.md, and fits help's 78 columns")
  func formsTable() throws {
    let readme = try String(
      contentsOf: packageDirectory().appending(path: "README.md"), encoding: .utf8)
    // Rows of README's table: | `90s` `25m` … | reading |
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
    let listed = rows.flatMap { row in row.split(separator: "|")[0].matches(of: #/`([^`]+)`/#).map { String($0.1) } }
    #expect(listed == TimeSpec.forms.flatMap(\.examples), "README's table of forms differs from TimeSpec.forms")
    for line in TimeSpec.formsTable.split(separator: "\n") {
      #expect(line.count <= 78, "too wide for help: \(line)")
    }
    #expect(Set(Self.formExpectations.keys) == Set(Self.formExamples), "an expectation for an example that is gone")
  }

  @Test("ISO 8601 instants agree with Foundation's ISO 8601 parser")
  func isoInstants() throws {
    let texts = [
      "2026-12-31T23:59:59Z", "2026-12-31t23:59:59z", "2026-12-31T23:59:59+01:00", "2026-12-31T23:59:59-01:30",
      "2026-12-31T23:59:59.250Z", "2026-12-31T23:59:59+18:00", "2026-12-31T23:59:59-18:00", "2000-02-29T00:00:00Z",
      "1969-12-31T23:59:59Z", "2027-01-01T14:00:00.123456789Z",
    ]
    let strategy = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
    for text in texts {
      let target = try TimeSpec(parsing: text).resolved(now: Self.now, calendar: Self.newYork)
      let plain = text.replacing(#/\.\d+/#, with: "").uppercased()
      let fraction = text.firstMatch(of: #/\.(\d+)/#).map { Double("0." + $0.1) ?? 0 } ?? 0
      let expected = try strategy.parse(plain).addingTimeInterval(fraction)
      guard case .deadline(let date) = target else {
        Issue.record("\(text): \(target)")
        continue
      }
      #expect(abs(date.timeIntervalSince(expected)) < 1e-6, "\(text): \(date) vs Foundation's \(expected)")
    }
    let spaced = [
      ("2027-01-01 14:00 UTC", "2027-01-01T14:00:00Z"), ("2027-01-01 14:00 GMT", "2027-01-01T14:00:00Z"),
      ("2027-01-01 14:00 +02:00", "2027-01-01T12:00:00Z"), ("2027-01-01 14:00+02", "2027-01-01T12:00:00Z"),
      ("2027-01-01 14:00 -0530", "2027-01-01T19:30:00Z"), ("2026-12-31T23:59Z", "2026-12-31T23:59:00Z"),
      ("2027-01-01 14:00 utc+2", "2027-01-01T12:00:00Z"), ("2027-01-01 14:00 europe/berlin", "2027-01-01T13:00:00Z"),
      ("20270101T1400Z", "2027-01-01T14:00:00Z"), ("2027.01.01 14:00 z", "2027-01-01T14:00:00Z"),
    ]
    try Self.expectDeadlines(spaced, now: Self.now)
  }

  @Test("A date without a zone is local, read in the given calendar's zone")
  func localDates() throws {
    let spec = try TimeSpec(parsing: "2026-12-31T23:59")
    #expect(
      spec.form
        == .wallClock(
          WallClockSpec(day: .date(year: 2026, month: 12, day: 31), time: ClockTime(hour: 23, minute: 59))))
    #expect(
      try spec.resolved(now: Self.now, calendar: Self.calendar("Asia/Tokyo"))
        == .deadline(Self.date("2026-12-31T23:59:00+09:00")))
    #expect(
      try TimeSpec(parsing: "2026-06-01").resolved(now: Self.now, calendar: Self.calendar("UTC"))
        == .deadline(Self.date("2026-06-01T00:00:00Z")))
  }

  @Test("A clock time is today while it is ahead, tomorrow once it has passed (or is now)")
  func todayOrTomorrow() throws {
    let berlin = Self.calendar("Europe/Berlin")
    let before = Self.date("2026-03-10T17:59:30+01:00")
    let spec = try TimeSpec(parsing: "18:00")
    #expect(try spec.resolved(now: before, calendar: berlin) == .deadline(before + 30))
    #expect(try spec.resolved(now: before + 60, calendar: berlin) == .deadline(before + 30 + 86_400))
    #expect(try spec.resolved(now: before + 30, calendar: berlin) == .deadline(before + 30 + 86_400))
  }

  @Test(
    "New York's spring-forward day: a skipped time moves forward by the gap; noon is 11 hours after midnight",
    arguments: [
      ("2:30", "2026-03-08T03:30:00-04:00"), ("3:00", "2026-03-08T03:00:00-04:00"),
      ("1:30", "2026-03-08T01:30:00-05:00"), ("2026-03-08 02:30", "2026-03-08T03:30:00-04:00"),
      ("noon", "2026-03-08T12:00:00-04:00"), ("tomorrow", "2026-03-09T00:00:00-04:00"),
      ("sunday", "2026-03-15T00:00:00-04:00"), ("sunday 2:30", "2026-03-08T03:30:00-04:00"),
      ("12:00 EST", "2026-03-08T12:00:00-05:00"), ("12:00 America/New_York", "2026-03-08T12:00:00-04:00"),
    ])
  func springForward(text: String, expected: String) throws {
    let midnight = Self.date("2026-03-08T00:00:00-05:00")
    #expect(
      try TimeSpec(parsing: text).resolved(now: midnight, calendar: Self.newYork) == .deadline(Self.date(expected)))
    if text == "noon" {
      #expect(Self.date(expected).timeIntervalSince(midnight) == 11 * 3_600)
    }
  }

  @Test(
    "New York's fall-back day: a time that happens twice is the first; tomorrow is 25 hours away",
    arguments: [
      ("1:30", "2026-11-01T01:30:00-04:00"), ("2:00", "2026-11-01T02:00:00-05:00"),
      ("2026-11-01 01:30", "2026-11-01T01:30:00-04:00"), ("tomorrow", "2026-11-02T00:00:00-05:00"),
    ])
  func fallBack(text: String, expected: String) throws {
    let midnight = Self.date("2026-11-01T00:00:00-04:00")
    #expect(
      try TimeSpec(parsing: text).resolved(now: midnight, calendar: Self.newYork) == .deadline(Self.date(expected)))
  }

  @Test("Weekdays: the start of the next such day, a week ahead on that day; with a time, the next one ahead")
  func weekdays() throws {
    let fridayMorning = Self.date("2026-03-06T10:00:00-05:00")
    let cases = [
      ("friday", "2026-03-13T00:00:00-04:00"), ("fri 14:00", "2026-03-06T14:00:00-05:00"),
      ("fri 9:00", "2026-03-13T09:00:00-04:00"), ("Sat.", "2026-03-07T00:00:00-05:00"),
      ("thurs", "2026-03-12T00:00:00-04:00"), ("on tuesday at 6pm", "2026-03-10T18:00:00-04:00"),
      ("Fri, Jan 1, 2027", "2027-01-01T00:00:00-05:00"),
    ]
    try Self.expectDeadlines(cases, now: fridayMorning)
  }

  @Test("A date without a year is the next one; February 29 the next leap year's")
  func withoutYear() throws {
    let cases = [
      ("mar 4", "2027-03-04T00:00:00-05:00"), ("mar 4 11:00", "2026-03-04T11:00:00-05:00"),
      ("4 march", "2027-03-04T00:00:00-05:00"), ("feb 29", "2028-02-29T00:00:00-05:00"),
      ("jan 1st", "2027-01-01T00:00:00-05:00"),
    ]
    try Self.expectDeadlines(cases, now: Self.now)
  }

  @Test("Abbreviations are fixed offsets all year; zone names follow the zone's daylight saving time")
  func zones() throws {
    let july = Self.date("2026-07-01T12:00:00Z")
    let cases = [
      ("18:00 EST", "2026-07-01T23:00:00Z"), ("18:00 EDT", "2026-07-01T22:00:00Z"),
      ("18:00 America/New_York", "2026-07-01T22:00:00Z"), ("18:00 america/new_york", "2026-07-01T22:00:00Z"),
      ("18:00 CET", "2026-07-01T17:00:00Z"), ("18:00 Europe/Berlin", "2026-07-01T16:00:00Z"),
      ("18:00 PDT", "2026-07-02T01:00:00Z"), ("5:45 npt", "2026-07-02T00:00:00Z"),
      ("18:00 GMT-3", "2026-07-01T21:00:00Z"), ("18:00Z", "2026-07-01T18:00:00Z"),
    ]
    try Self.expectDeadlines(cases, now: july)
  }

  @Test("01/02/2027 reads in the order a locale gives, or is an error naming both dates")
  func dayAndMonthOrder() throws {
    #expect(DateOrder(locale: Locale(identifier: "en_US")) == .monthFirst)
    #expect(DateOrder(locale: Locale(identifier: "en_GB")) == .dayFirst)
    #expect(DateOrder(locale: Locale(identifier: "de")) == .dayFirst)
    #expect(DateOrder(locale: Locale(identifier: "ja_JP")) == nil, "year first: leaves the order open")
    let dayFirst = try TimeSpec(parsing: "01/02/2027", dateOrder: .dayFirst).form
    #expect(dayFirst == .wallClock(WallClockSpec(day: .date(year: 2027, month: 2, day: 1), time: nil)))
    let monthFirst = try TimeSpec(parsing: "01/02/2027", dateOrder: .monthFirst).form
    #expect(monthFirst == .wallClock(WallClockSpec(day: .date(year: 2027, month: 1, day: 2), time: nil)))
    #expect(
      throws: TimeSpecError(
        input: "01/02/2027", problem: .ambiguousDate(dayFirst: "2027-02-01", monthFirst: "2027-01-02"))
    ) {
      try TimeSpec(parsing: "01/02/2027")
    }
    #expect(try TimeSpec(parsing: "01/01/2027").form == dayFirst.withDay(.date(year: 2027, month: 1, day: 1)))
    #expect(throws: TimeSpecError.self) { try TimeSpec(parsing: "13/02/2027", dateOrder: .monthFirst) }
  }

  @Test("The furthest countdown is 36525 days ahead, for durations and dates alike; never a saturated value")
  func limit() throws {
    let limit = Self.now.addingTimeInterval(36_525 * 86_400)
    let atLimit = try TimeSpec(parsing: ISO8601DateFormatter().string(from: limit))
    #expect(try atLimit.resolved(now: Self.now, calendar: Self.newYork) == .deadline(limit))
    let justBeyond = try TimeSpec(parsing: ISO8601DateFormatter().string(from: limit + 1))
    #expect(throws: TimeSpecError.self) { try justBeyond.resolved(now: Self.now, calendar: Self.newYork) }
    #expect(try TimeSpec(parsing: "36525d").form == .duration(TimeSpec.maximumDuration))
    #expect(throws: TimeSpecError(input: "36525d 1s", problem: .tooLong)) { try TimeSpec(parsing: "36525d 1s") }
    for text in ["2320-01-01", "9999-12-31", "2126-03-05 10:00:01"] {
      do {
        _ = try TimeSpec(parsing: text).resolved(now: Self.now, calendar: Self.newYork)
        Issue.record("\(text) was accepted")
      } catch {
        #expect(error.description.hasPrefix("'\(text)' is "), "\(error)")
        #expect(error.description.contains("years ahead") && error.description.contains("to 2126-03-05"), "\(error)")
      }
    }
  }

  @Test(
    "Errors quote the input as typed, say what is wrong, and suggest the nearest form for it",
    arguments: [
      ("24:00", "no hour 24. The end of the day is midnight"),
      ("33:58", "For 33 minutes 58 seconds write 33m58s; for 33 hours 58 minutes write 33h58m."),
      ("25:00", "For 25 minutes write 25m"),
      ("24:30", "30 minutes past midnight is 0:30"),
      ("0000-01-01", "'0000-01-01': there is no year 0"),
      (
        "1\u{200F}0",
        "'1\\u{200F}0': \\u{200F} (RIGHT-TO-LEFT MARK) is an invisible or control character. Without it: '10'."
      ),
      ("12:30\u{0}", "Without it: '12:30'"),
      ("\u{1B}[2J", "'\\u{1B}[2J': \\u{1B} (U+001B) is an invisible or control character. Delete it"),
      ("1\u{301}0s", "'1\\u{301}0s': \\u{301} (COMBINING ACUTE ACCENT) is a combining mark"),
      ("1²m", "'²' (SUPERSCRIPT TWO) is not a decimal digit"),
      ("三分", "'三' (CJK UNIFIED IDEOGRAPH-4E09) is not a decimal digit"),
      ("1h1h", "units go from largest to smallest, each once: write 2h."),
      ("30m1h", "write 1h30m"),
      ("1:2:3", "take two digits each. Try 1:02:03."),
      ("1:60:00", "minutes 60 is not in 0...59. Try 2:00:00."),
      ("13pm", "hour 13 is not in 1...12 with pm. Try 13:00 or 1:00pm."),
      ("0am", "Try 12am or 0:00."),
      ("2027-02-29", "February 2027 has 28 days. Try 2027-02-28."),
      ("feb 30", "February has 29 days. Try February 29."),
      ("2026-13-01", "month 13 is not in 1...12"),
      ("2026-12-31T23:59:59+18:01", "the offset +18:01 is beyond ±18:00"),
      ("18:00 +01:60", "offset minutes 60 is not in 0...59"),
      (
        "18:00 IST",
        "+05:30 India Standard Time (Asia/Kolkata), +01:00 Irish Standard Time (Europe/Dublin), +02:00 Israel Standard Time (Asia/Jerusalem). Write the offset or the zone's name instead, e.g. 18:00 Asia/Kolkata."
      ),
      ("18:00 CST", "-06:00 North American Central Standard Time (America/Chicago)"),
      (
        "18:00 Europe/Berln", "'Europe/Berln' is not a time zone this system knows. Did you mean '18:00 Europe/Berlin'?"
      ),
      ("UTC", "'UTC' is a zone without a time: write the time before it, e.g. 18:00 UTC."),
      ("fri 2027-01-02", "2 January 2027 is a Saturday, not a Friday."),
      ("01/02/27", "write the year with four digits, e.g. 01/02/2027."),
      // Found by the fuzzer: a suggestion made from the input shows its tab as an escape too.
      ("may8\t cst  at 4a", "e.g. may8\\u{9} America/Chicago  at 4a."),
      ("01/02/27\tfri", "e.g. 01/02/2027\\u{9}fri."),
      (
        "01/02/2027",
        "could be 1 February 2027 (day first) or 2 January 2027 (month first). Write 2027-02-01 or 2027-01-02"
      ),
      ("10 minuts", "'minuts' is not a unit of time. Did you mean '10 minutes'?"),
      ("1 month", "A month has no fixed length: write 30d"),
      ("tomorow 9:00", "Did you mean 'tomorrow 9:00'?"),
      ("frday", "Did you mean 'friday'?"),
      ("18:00 xyz", "'xyz' is not understood"),
      ("+5m", "Did you mean '5m'?"),
      ("-5m", "is negative: a countdown runs to a time ahead. Write 5m for that much time from now."),
      ("--5", "'--5' is negative"),
      ("2 hours and", "it stops where more was expected"),
      ("soon", "'soon' is not a time."),
      ("", "'' is not a time."),
      ("9999999999:00:00", "is longer than 36525 days"),
      ("36526d", "is longer than 36525 days (100 years of 365.25 days), the longest countdown."),
    ])
  func rejected(text: String, expected: String) {
    do {
      let spec = try TimeSpec(parsing: text)
      Issue.record("\(text.debugDescription) was accepted: \(spec)")
    } catch {
      let message = error.description
      #expect(message.contains(expected), "\(message)")
      #expect(message.hasPrefix("'\(TerminalText.escaped(DecimalDigits.trimmingSpaces(text)))'"), "\(message)")
      #expect(TerminalText.isSafe(message), "\(message.debugDescription)")
    }
  }

  @Test("30 and 31 digits fail the same way; so does every length past the limit")
  func longNumbers() {
    for count in 29...40 {
      for unit in ["", "d", "ms"] {
        let text = String(repeating: "9", count: count) + unit
        #expect(Self.message(text) == "'\(text)' is longer than \(TimeSpec.limitText), the longest countdown.")
      }
    }
  }

  @Test("Escapes show what does not show itself; what comes out is safe for a terminal")
  func escapes() {
    #expect(TerminalText.escaped("1\u{200F}0") == "1\\u{200F}0")
    #expect(TerminalText.escaped("a\tb\nc\u{7F}") == "a\\u{9}b\\u{A}c\\u{7F}")
    #expect(TerminalText.escaped("18\u{A0}00") == "18\\u{A0}00")
    #expect(TerminalText.escaped("é 東京 ๑๒") == "é 東京 ๑๒")
    #expect(TerminalText.escaped("e\u{301}") == "e\\u{301}")
    #expect(TerminalText.escaped("क\u{93F}") == "क\u{93F}", "a vowel sign on a letter of its script stays")
    #expect(TerminalText.escaped("a\\b") == "a\\\\b")
    #expect(TerminalText.isSafe(TerminalText.escaped("\u{1B}]2;x\u{7}\u{202E}\u{2028}\u{FEFF}")))
  }

  /// Checks that each text counts to its expected instant (ISO 8601) at `now` in New York.
  static func expectDeadlines(_ cases: [(text: String, expected: String)], now: Date) throws {
    for (text, expected) in cases {
      #expect(
        try TimeSpec(parsing: text).resolved(now: now, calendar: newYork) == .deadline(date(expected)), "\(text)")
    }
  }

  static func message(_ text: String) -> String {
    do {
      _ = try TimeSpec(parsing: text)
      return "accepted"
    } catch {
      return error.description
    }
  }

  static func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
    return calendar
  }

  static func date(_ iso: String) -> Date {
    (try? Date.ISO8601FormatStyle().parse(iso)) ?? .distantPast
  }
}

extension TimeSpec.Form {
  /// The same wall-clock reading on another day.
  fileprivate func withDay(_ day: WallClockSpec.Day) -> TimeSpec.Form {
    guard case .wallClock(var spec) = self else { return self }
    spec.day = day
    return .wallClock(spec)
  }
}
