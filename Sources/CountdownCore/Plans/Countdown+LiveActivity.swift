import Foundation

extension Countdown {
  /// A Live Activity for this countdown from `now` on, shown through `display`, within the system's
  /// 8 hours (see ``LiveActivityPlan``).
  ///
  /// The updates are the content now, then one at each date at which `display`'s value or the finished
  /// flag changes while the activity runs, at most `maximumUpdates` in all; each carries the date its
  /// content stops being true. A countdown that finishes within the activity's 8 hours is ended by the
  /// app at the finish, showing the finished state until `dismissAfterFinish` later; one that outlasts
  /// them, or is paused, is ended by the system, and its last update stays on the Lock Screen up to
  /// 4 hours more.
  ///
  /// ```swift
  /// let plan = countdown.liveActivity(of: urgency, at: engine.now, on: engine.timeline)
  /// let first = plan.updates[0]
  /// ```
  ///
  /// - Parameters:
  ///   - display: What the activity shows besides the system timer: a phase, a coarse time; pick one
  ///     that changes seldom, since every change is an update to send.
  ///   - now: The instant of the first update.
  ///   - timeline: Converts this countdown's instants to dates.
  ///   - activityStart: When the activity started (`now` if `nil`): the system's 8 hours count from
  ///     there.
  ///   - maximumUpdates: The most updates to list (at least 1): what the app's update budget allows.
  ///   - dismissAfterFinish: How long the finished state stays on the Lock Screen (at most 4 hours).
  /// - Precondition: `maximumUpdates >= 1`.
  /// - Complexity: O(`maximumUpdates`) display calls.
  public func liveActivity<Display: CountdownDisplay>(
    of display: Display,
    at now: Instant,
    on timeline: WallClockTimeline<Instant>,
    startedAt activityStart: Instant? = nil,
    maximumUpdates: Int = 16,
    dismissAfterFinish: Duration = .seconds(900)
  ) -> LiveActivityPlan<Display.Value> where Display.Value: Hashable & Codable {
    precondition(maximumUpdates >= 1, "A Live Activity plan needs at least one update, got \(maximumUpdates)")
    typealias Plan = LiveActivityPlan<Display.Value>
    let limits = (run: Plan.maximumDuration / .seconds(1), linger: Plan.lockScreenLinger / .seconds(1))
    let start = planStart(at: now, on: timeline)
    let nowDate = start.date
    let systemEnd = (activityStart.map { timeline.date(for: $0) } ?? nowDate).addingTimeInterval(limits.run)
    let interval = timerInterval(from: nowDate, on: timeline)
    let left = remaining(at: start.instant)
    func state(value: Display.Value, isFinished: Bool) -> Plan.ContentState {
      Plan.ContentState(
        timerInterval: interval, pausedRemaining: isPaused ? left : nil, value: value, isFinished: isFinished)
    }
    // One more than can be listed, so that the last listed update knows when it goes stale.
    let changes = datedChangesWithFinish(of: display, from: start, on: timeline, limit: maximumUpdates + 1)
    func staleDate(after index: Int) -> Date? {
      index + 1 < changes.count ? changes[index + 1].at : nil
    }
    let finish = finishDate(on: timeline)
    let endedByApp = finish.map { $0 < systemEnd } ?? false
    let endingDate = endedByApp ? max(finish ?? nowDate, nowDate) : systemEnd
    let listed = changes.prefix(maximumUpdates).prefix { $0.at < endingDate }
    let updates = listed.indices.map { index in
      Plan.Update(
        date: changes[index].at,
        state: state(value: changes[index].value.first, isFinished: changes[index].value.second),
        staleDate: staleDate(after: index))
    }
    let ending: Plan.Ending
    if endedByApp, let end {
      // The finished state, from the finish (or now, if already past it) until the display next changes.
      let shown = min(left, .zero)
      let next = display.nextChange(after: shown).map {
        Date.earliest(
          atOrAfter: timeline.localAttoseconds(at: end.advanced(by: .zero - $0))
            + timeline.referenceOffset.attosecondCount)
      }
      let linger = min(max(dismissAfterFinish / .seconds(1), 0), limits.linger)
      ending = Plan.Ending(
        date: endingDate, isBySystem: false, state: state(value: display.value(remaining: shown), isFinished: true),
        staleDate: next, dismissalDate: endingDate.addingTimeInterval(linger))
    } else {
      // The system ends it; the Lock Screen shows the last update sent (or what holds now, if none can be).
      let last =
        updates.last
        ?? Plan.Update(
          date: nowDate, state: state(value: display.value(remaining: left), isFinished: left <= .zero),
          staleDate: staleDate(after: 0))
      ending = Plan.Ending(
        date: systemEnd, isBySystem: true, state: last.state, staleDate: last.staleDate,
        dismissalDate: systemEnd.addingTimeInterval(limits.linger))
    }
    let coveringStart = finish.flatMap { $0 > systemEnd ? $0.addingTimeInterval(-limits.run) : nil }
    return Plan(date: nowDate, updates: updates, ending: ending, earliestStartCoveringFinish: coveringStart)
  }
}
