public import Foundation

// The wall-clock forms of a change schedule: dates rather than monotonic instants, for the places
// that take dates (a WidgetKit timeline's entries, a `UNCalendarNotificationTrigger`).

extension Countdown {
  /// The dates in `start...end` at which `display`'s value changes, converted through `timeline`;
  /// at most `limit` of them.
  ///
  /// The same schedule as ``changes(of:from:through:)`` on the instants `timeline` gives for `start`
  /// and `end`, each change's instant converted back to a date: the first element is `start` (with
  /// its value), and each further date is the earliest `Date` at which the change has happened, so
  /// an entry never shows its value before the countdown does. Changes closer together than a `Date`
  /// can tell apart (about 0.1 µs today) are merged into the last of them.
  ///
  /// ```swift
  /// let timeline = try WallClockTimeline(anchorDate: Date(), anchorInstant: clock.now)
  /// let entries = try turn.changes(of: .coarse, from: .now, through: .now + 86_400, on: timeline, limit: 200)
  /// ```
  ///
  /// - Parameters:
  ///   - display: What is shown.
  ///   - start: The first date of the schedule.
  ///   - end: The last date (inclusive); a date before `start` gives an empty schedule.
  ///   - timeline: Converts between the dates and this countdown's instants.
  ///   - limit: The most elements to return; WidgetKit and the notification center both prefer a
  ///     few dozen.
  /// - Throws: ``WallClockTimelineError`` when `start` or `end` is not finite or outside
  ///   ``WallClockTimeline/supportedDates``.
  /// - Precondition: `limit` is zero or more.
  /// - Complexity: O(`limit`) display calls (plus the invisible changes skipped).
  public func changes<Display: CountdownDisplay>(
    of display: Display,
    from start: Date,
    through end: Date,
    on timeline: WallClockTimeline<Instant>,
    limit: Int
  ) throws(WallClockTimelineError) -> [CountdownChange<Date, Display.Value>] {
    precondition(limit >= 0, "A change schedule's limit must not be negative, got \(limit)")
    let changes = changes(of: display, from: try timeline.instant(for: start), through: try timeline.instant(for: end))
    return changes.dated(start: start, limit: limit) { instant in
      timeline.localAttoseconds(at: instant) + timeline.referenceOffset.attosecondCount
    }
  }
}

extension CountdownDisplay {
  /// The dates in `start...end` at which this display's value changes for a countdown to
  /// `deadline`; at most `limit` of them.
  ///
  /// The wall-clock form that needs no monotonic clock: the remaining time at a date is `deadline`
  /// minus the date, computed exactly. As ``Countdown/changes(of:from:through:on:limit:)``: the first
  /// element is `start` with its value, each further date is the earliest `Date` at which the
  /// change has happened, and changes closer together than a `Date` can tell apart are merged.
  ///
  /// ```swift
  /// // The marketplace widget: "2 hours", "1.5 hours", "60 min" … "1 min", then 0 at the deadline.
  /// let entries = try AdaptiveDisplay.coarse.changes(until: deadline, from: .now, through: .now + 86_400, limit: 200)
  /// ```
  ///
  /// - Throws: ``WallClockTimelineError`` when `deadline`, `start` or `end` is not finite or outside
  ///   ``WallClockTimeline/supportedDates``.
  /// - Precondition: `limit` is zero or more.
  public func changes(
    until deadline: Date,
    from start: Date,
    through end: Date,
    limit: Int
  ) throws(WallClockTimelineError) -> [CountdownChange<Date, Value>] {
    let countdown = Countdown(end: try WallClockInstant(deadline, as: .targetDate))
    return try countdown.changes(
      of: self, from: start, through: end, on: WallClockInstant.identityTimeline, limit: limit)
  }
}

extension CountdownChanges {
  /// At most `limit` of these changes with their instants as dates (`attoseconds` gives an instant's
  /// date in attoseconds since 2001-01-01), the first one dated `start` exactly.
  func dated(
    start: Date,
    limit: Int,
    attoseconds: (Instant) -> Int128
  ) -> [CountdownChange<Date, Display.Value>] {
    var dated: [CountdownChange<Date, Display.Value>] = []
    guard limit > 0 else { return dated }
    for change in self {
      let date = dated.isEmpty ? start : Date.earliest(atOrAfter: attoseconds(change.at))
      if let last = dated.last, last.at >= date {
        // Too close to the previous change for a `Date` to tell them apart: only this one is seen.
        dated.removeLast()
        if let before = dated.last, before.value == change.value { continue }
        dated.append(CountdownChange(at: dated.isEmpty ? start : date, value: change.value))
      } else {
        if dated.count == limit { break }
        dated.append(CountdownChange(at: date, value: change.value))
      }
    }
    return dated
  }
}
