import Foundation

extension Countdown {
  /// A WidgetKit timeline for this countdown from `now` on, shown through `display`, within a budget of
  /// `reloadsPerDay` reloads.
  ///
  /// The entries are the dates at which `display`'s value changes, and the finish, each with what to
  /// show from then on (see ``WidgetTimelinePlan``). When they all fit in `maximumEntries`, the plan
  /// covers everything the countdown will do by itself and WidgetKit need never reload
  /// (``WidgetTimelinePlan/Reload/never``). Otherwise the listed entries end at a horizon, after which
  /// the widget shows only the system timer, and WidgetKit reloads at the horizon, or at the earliest
  /// date the budget allows (a day divided by `reloadsPerDay` from `now`), whichever is later.
  ///
  /// ```swift
  /// // "2 hours", "1.5 hours" above an hour, then the system's own seconds timer below it.
  /// let hours = AdaptiveDisplay.coarse.map { $0 > .seconds(3_600) ? $0 : nil }
  /// let plan = countdown.widgetTimeline(of: hours, at: now, on: timeline, reloadsPerDay: 40)
  /// ```
  ///
  /// - Parameters:
  ///   - display: What the widget shows besides the timer; pick one that changes seldom (coarse
  ///     values, phases) and let `Text(timerInterval:)` show the seconds.
  ///   - now: The instant of the first entry.
  ///   - timeline: Converts this countdown's instants to the widget's dates.
  ///   - reloadsPerDay: The reloads WidgetKit is expected to grant a day (at least 1).
  ///   - maximumEntries: The most entries in the timeline (at least 3).
  /// - Precondition: `reloadsPerDay >= 1` and `maximumEntries >= 3`.
  /// - Complexity: O(`maximumEntries`) display calls.
  public func widgetTimeline<Display: CountdownDisplay>(
    of display: Display,
    at now: Instant,
    on timeline: WallClockTimeline<Instant>,
    reloadsPerDay: Int = 40,
    maximumEntries: Int = 100
  ) -> WidgetTimelinePlan<Display.Value> {
    precondition(reloadsPerDay >= 1, "A widget needs at least one reload a day, got \(reloadsPerDay)")
    precondition(maximumEntries >= 3, "A widget timeline plan needs room for 3 entries, got \(maximumEntries)")
    typealias Plan = WidgetTimelinePlan<Display.Value>
    let start = planStart(at: now, on: timeline)
    let interval = timerInterval(from: start.date, on: timeline)
    let left = remaining(at: start.instant)
    func entry(_ change: CountdownChange<Date, CombinedDisplay<Display, FinishDisplay>.Value>) -> Plan.Entry {
      Plan.Entry(
        date: change.at, value: change.value.first, timerInterval: interval,
        pausedRemaining: isPaused ? left : nil, isFinished: change.value.second)
    }
    let changes = datedChangesWithFinish(of: display, from: start, on: timeline, limit: maximumEntries + 1)
    guard changes.count > maximumEntries else {
      return Plan(entries: changes.map(entry), reload: .never, horizon: nil)
    }
    // Too many to list: the first ones, then the system timer alone from the first change not listed,
    // and an entry at the finish if it comes later, so that no entry says "not finished" across it.
    let finishedAtHorizon = changes[maximumEntries - 1].value.second
    let listed = finishedAtHorizon ? maximumEntries - 1 : maximumEntries - 2
    let horizon = changes[listed].at
    var entries = changes.prefix(listed).map(entry)
    entries.append(
      Plan.Entry(
        date: horizon, value: nil, timerInterval: interval, pausedRemaining: nil, isFinished: finishedAtHorizon))
    if !finishedAtHorizon, let finish = finishDate(on: timeline) {
      entries.append(
        Plan.Entry(date: finish, value: nil, timerInterval: interval, pausedRemaining: nil, isFinished: true))
    }
    let budget = start.date.addingTimeInterval(86_400 / Double(reloadsPerDay))
    return Plan(entries: entries, reload: .after(max(horizon, budget)), horizon: horizon)
  }
}
