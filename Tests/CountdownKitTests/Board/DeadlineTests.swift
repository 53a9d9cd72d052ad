import CountdownKit
import Foundation
import Testing

/// Stored deadlines are read defensively: a missing, infinite or absurd value is an ``InvalidDeadline``
/// with a reason, never a crash or a countdown to garbage. One rule for every store (the command's
/// SQLite rows, CountdownPostgres's rows).
@Suite struct DeadlineTests {
  @Test func aPausedTimeWinsOverTheEndDateAndIsRoundedToTheMillisecond() throws {
    #expect(
      try Deadline(endsAt: Date(timeIntervalSince1970: 1_000), pausedRemaining: 1.2344)
        == .paused(remaining: .milliseconds(1_234)))
    #expect(try Deadline(endsAt: nil, pausedRemaining: 0) == .paused(remaining: .zero))
    #expect(
      try Deadline(endsAt: nil, pausedRemaining: Deadline.longestPausedSeconds)
        == .paused(remaining: .seconds(3_155_760_000)))
  }

  @Test func aRunningDeadlineCountsToItsDate() throws {
    let end = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(try Deadline(endsAt: end, pausedRemaining: nil) == .until(end))
    #expect(
      try Deadline(endsAt: Deadline.plausibleDates.lowerBound, pausedRemaining: nil)
        == .until(Deadline.plausibleDates.lowerBound))
    #expect(
      try Deadline(endsAt: Deadline.plausibleDates.upperBound, pausedRemaining: nil)
        == .until(Deadline.plausibleDates.upperBound))
  }

  @Test(
    arguments: [
      (nil, nil, InvalidDeadline.noEnd),
      (Date(timeIntervalSince1970: -1), nil, .endOutOfRange(Date(timeIntervalSince1970: -1))),
      (Date(timeIntervalSince1970: 7_258_118_401), nil, .endOutOfRange(Date(timeIntervalSince1970: 7_258_118_401))),
      (nil, -0.001, .pausedOutOfRange(-0.001)),
      (nil, 3_155_760_000.5, .pausedOutOfRange(3_155_760_000.5)),
    ] as [(Date?, Double?, InvalidDeadline)])
  func valuesThatCannotBeCountedToAreInvalidWithAReason(endsAt: Date?, paused: Double?, expected: InvalidDeadline) {
    #expect(throws: expected) { try Deadline(endsAt: endsAt, pausedRemaining: paused) }
  }

  @Test func nonFiniteValuesAreInvalid() {
    for paused in [Double.nan, .infinity, -.infinity] {
      #expect(throws: InvalidDeadline.self) { try Deadline(endsAt: nil, pausedRemaining: paused) }
    }
    // (Values are checked outside `#expect`, which prints its operands: Foundation traps printing an
    // infinite date.)
    for seconds in [Double.infinity, -.infinity, .nan] {
      let date = Date(timeIntervalSince1970: seconds)
      let plausible = Deadline.isPlausible(date)
      #expect(!plausible)
      var reason: InvalidDeadline?
      do { _ = try Deadline(endsAt: date, pausedRemaining: nil) } catch { reason = error }
      #expect(reason?.description.hasSuffix(" s from 1970") == true)
    }
  }

  @Test func reasonsSayWhatIsWrong() {
    #expect(InvalidDeadline.noEnd.description == "no end date and no paused time left")
    #expect(InvalidDeadline.pausedOutOfRange(-2).description == "the paused time left is out of range: -2.0 s")
    #expect(
      InvalidDeadline.endOutOfRange(Date(timeIntervalSince1970: -86_400)).description
        == "the end date is out of range: 1969-12-31T00:00:00Z")
    #expect(
      InvalidDeadline.endOutOfRange(Date(timeIntervalSince1970: 253_402_214_400)).description
        == "the end date is out of range: 9999-12-31T00:00:00Z", "a date Foundation does not describe")
    #expect(
      InvalidDeadline.endOutOfRange(Date(timeIntervalSince1970: 1e12)).description
        == "the end date is out of range: 1000000000000.0 s from 1970")
    #expect(
      InvalidDeadline.unreadable("window_end is not a date: 'soon'").description == "window_end is not a date: 'soon'")
  }
}
