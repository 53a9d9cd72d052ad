import CountdownInput
import Foundation
import Testing

@Suite("Parsing <time>")
struct TimeSpecTests {
  @Test(
    "Durations",
    arguments: [
      ("90s", Duration.seconds(90)),
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
      ("10", .seconds(10)),
      ("1h 5m 30s", .seconds(3_930)),
      ("1 h 5 m", .seconds(3_900)),
      ("2 hours 30 minutes", .seconds(9_000)),
      ("1hr 20mins 5secs", .seconds(4_805)),
      ("3 days", .seconds(259_200)),
      ("250 milliseconds", .milliseconds(250)),
      ("1.000000000000000001s", Duration(secondsComponent: 1, attosecondsComponent: 1)),
      ("0.5d", .seconds(43_200)),
      ("0.333333333333333333d", Duration(secondsComponent: 28_799, attosecondsComponent: 999_999_999_999_971_200)),
      ("36525d", .seconds(3_155_760_000)),
    ])
  func durations(text: String, expected: Duration) throws {
    #expect(try TimeSpec(parsing: text) == .duration(expected))
  }

  @Test(
    "Times of day",
    arguments: [
      ("18:00", 18, 0), ("9:30", 9, 30), ("09:30", 9, 30), ("0:00", 0, 0), ("23:59", 23, 59),
      ("6pm", 18, 0), ("6:30pm", 18, 30), ("6:30 PM", 18, 30), ("12am", 0, 0), ("12pm", 12, 0), ("5:00", 5, 0),
    ])
  func timesOfDay(text: String, hour: Int, minute: Int) throws {
    #expect(try TimeSpec(parsing: text) == .timeOfDay(hour: hour, minute: minute, second: 0))
  }

  @Test(
    "ISO 8601 instants",
    arguments: [
      ("2026-12-31T23:59:59Z", 1_798_761_599.0),
      ("2026-12-31t23:59:59z", 1_798_761_599.0),
      ("2026-12-31T23:59:59+01:00", 1_798_757_999.0),
      ("2026-12-31T23:59:59-0130", 1_798_766_999.0),
      ("2026-12-31T23:59:59.250Z", 1_798_761_599.25),
      ("2026-12-31T23:59Z", 1_798_761_540.0),
      ("2027-01-01 14:00 UTC", 1_798_812_000.0),
      ("2027-01-01 14:00 utc", 1_798_812_000.0),
      ("2027-01-01 14:00 GMT", 1_798_812_000.0),
      ("2027-01-01 14:00 +02:00", 1_798_804_800.0),
      ("2027-01-01 14:00+02", 1_798_804_800.0),
      ("2027-01-01 14:00 -0530", 1_798_831_800.0),
      ("2027-01-01T14:00:00.123456789Z", 1_798_812_000.123456789),
      ("2026-12-31T23:59:59+18:00", 1_798_696_799.0),
      ("2026-12-31T23:59:59-18:00", 1_798_826_399.0),
      ("2000-02-29T00:00:00Z", 951_782_400.0),
      ("1969-12-31T23:59:59Z", -1.0),
    ])
  func instants(text: String, seconds: Double) throws {
    #expect(try TimeSpec(parsing: text) == .date(Date(timeIntervalSince1970: seconds)))
  }

  @Test("A date without a zone is local, resolved in the given calendar")
  func localDates() throws {
    let spec = try TimeSpec(parsing: "2026-12-31T23:59")
    #expect(spec == .localDate(DateComponents(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 0)))
    let target = try spec.resolved(now: Date(timeIntervalSince1970: 0), calendar: Self.calendar("Asia/Tokyo"))
    #expect(target == .deadline(Date(timeIntervalSince1970: 1_798_761_540 - 9 * 3_600)))
    let midnight = try TimeSpec(parsing: "2026-06-01").resolved(now: Date(), calendar: Self.calendar("UTC"))
    #expect(midnight == .deadline(Date(timeIntervalSince1970: 1_780_272_000)))
    let spaced = try TimeSpec(parsing: "2027-01-01 14:00").resolved(now: Date(), calendar: Self.calendar("Asia/Tokyo"))
    #expect(spaced == .deadline(Date(timeIntervalSince1970: 1_798_812_000 - 9 * 3_600)))
  }

  @Test(
    "Rejected input says what went wrong and shows an accepted example",
    arguments: [
      "", "soon", "10x", "1h1h", "30m1h", "h", "25:00", "123:00", "18:60", "1:60:00", "1:00:60", "13pm", "0am",
      "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-12-31T24:00:00Z", "2026-12-31T23:59:59+19:00",
      "36526d", "1:2:3", "-5m", "1e3s", "1.5.5h", "99999999999999999999999999999d",
      "2026-12-31T23:59:59+18:01", "2026-12-31T23:59:59-18:30", "2026-12-31T23:59:59+99:00",
      "2026-12-31T23:59:59+01:60",
      "2027-02-29", "2026-04-31 10:00", "2026-12-31T23:59:60Z", "1h 1h", "5 parsecs", "1 h h", "10 s 5",
      "²", "1²:00", "Ⅻ:00", "½h", "①m", "三分", "1\u{301}0s", "١٢\u{301}:٣٠", "\u{1B}[2J", "12:30\u{0}",
      "1mm", "1hours5hours", "0x10s", "nan", "inf", "+5m", "9999999999:00:00",
    ])
  func rejected(text: String) {
    #expect {
      _ = try TimeSpec(parsing: text)
    } throws: { error in
      guard let error = error as? TimeSpecError else { return false }
      let message = error.description
      let shown = TerminalText.sanitized(text.trimmingCharacters(in: .whitespaces))
      return message.contains("'\(shown)'") && TerminalText.isSafe(message)
        && ["Try", "Write", "write e.g.", "36525 days", "does not exist"].contains { message.contains($0) }
    }
  }

  @Test("A time of day is today while it is ahead, tomorrow once it has passed")
  func todayOrTomorrow() throws {
    let calendar = Self.calendar("Europe/Berlin")
    // 2026-03-10 17:59:30 in Berlin (UTC+1).
    let before = Date(timeIntervalSince1970: 1_773_161_970)
    let spec = TimeSpec.timeOfDay(hour: 18, minute: 0, second: 0)
    #expect(try spec.resolved(now: before, calendar: calendar) == .deadline(before + 30))
    let after = before + 60
    #expect(try spec.resolved(now: after, calendar: calendar) == .deadline(before + 30 + 86_400))
    let exactly = before + 30
    #expect(try spec.resolved(now: exactly, calendar: calendar) == .deadline(exactly + 86_400))
  }

  @Test("A time of day skipped by a daylight-saving jump moves to the end of the gap")
  func daylightSavingGap() throws {
    let calendar = Self.calendar("Europe/Berlin")
    // 2026-03-29 00:00 in Berlin (UTC+1); clocks jump from 02:00 to 03:00 that night.
    let midnight = Date(timeIntervalSince1970: 1_774_738_800)
    let target = try TimeSpec.timeOfDay(hour: 2, minute: 30, second: 0).resolved(now: midnight, calendar: calendar)
    guard case .deadline(let date) = target else {
      Issue.record("expected a deadline, got \(target)")
      return
    }
    #expect(date > midnight && date <= midnight + 3 * 3_600)
    #expect(calendar.component(.hour, from: date) == 3)
  }

  @Test("Durations and instants ignore the calendar")
  func durationsIgnoreCalendar() throws {
    let now = Date(timeIntervalSince1970: 1_000)
    #expect(
      try TimeSpec.duration(.seconds(5)).resolved(now: now, calendar: Self.calendar("UTC")) == .duration(.seconds(5)))
    #expect(try TimeSpec.date(now).resolved(now: now, calendar: Self.calendar("UTC")) == .deadline(now))
  }

  static func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar
  }
}
