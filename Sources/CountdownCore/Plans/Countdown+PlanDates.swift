import Foundation

// What the widget and Live Activity plans share: the dated changes of a display and the finish, and
// the interval a system timer counts.

extension Countdown {
  /// Where a plan made at `now` starts: the earliest date through `timeline` at or after `now`, and the
  /// instant `timeline` gives for that date, so that every value a plan lists for a date is the value at
  /// the instant the date stands for (`now` itself if the date cannot be read back).
  func planStart(at now: Instant, on timeline: WallClockTimeline<Instant>) -> (date: Date, instant: Instant) {
    let date = Date.earliest(atOrAfter: timeline.localAttoseconds(at: now) + timeline.referenceOffset.attosecondCount)
    guard let instant = try? timeline.instant(for: date), instant >= now else { return (date, now) }
    return (date, instant)
  }

  /// The changes of `display` and of whether the countdown has finished, as dates through `timeline`,
  /// from `start` on: at most `limit`, the first dated `start.date` (see
  /// ``changes(of:from:through:on:limit:)``). A far horizon ends the walk for displays that change
  /// forever, which `limit` cuts first in practice.
  func datedChangesWithFinish<Display: CountdownDisplay>(
    of display: Display, from start: (date: Date, instant: Instant), on timeline: WallClockTimeline<Instant>, limit: Int
  ) -> [CountdownChange<Date, CombinedDisplay<Display, FinishDisplay>.Value>] {
    let horizon = start.instant.advanced(by: .seconds(Self.planHorizonSeconds))
    return changes(of: display.combined(with: FinishDisplay()), from: start.instant, through: horizon)
      .dated(start: start.date, limit: limit) { instant in
        timeline.localAttoseconds(at: instant) + timeline.referenceOffset.attosecondCount
      }
  }

  /// How far ahead a plan looks at most: 100 years.
  static var planHorizonSeconds: Int64 { 100 * 366 * 86_400 }

  /// The interval a system timer (`Text(timerInterval:)`, `ProgressView(timerInterval:)`) counts down
  /// for this running countdown: from the start of its total (or `date`, if later or without a total)
  /// to its end; `nil` while paused.
  func timerInterval(from date: Date, on timeline: WallClockTimeline<Instant>) -> ClosedRange<Date>? {
    guard let end else { return nil }
    let endDate = timeline.date(for: end)
    var start = date
    if let total, total > .zero { start = min(date, endDate.addingTimeInterval(-(total / .seconds(1)))) }
    return min(start, endDate)...endDate
  }

  /// The earliest date through `timeline` at which this running countdown has finished (as the dated
  /// schedules date a change); `nil` while paused.
  func finishDate(on timeline: WallClockTimeline<Instant>) -> Date? {
    end.map { Date.earliest(atOrAfter: timeline.localAttoseconds(at: $0) + timeline.referenceOffset.attosecondCount) }
  }
}
