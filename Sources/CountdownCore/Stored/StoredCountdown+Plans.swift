public import Foundation

// The widget and Live Activity plans of a stored countdown, on the wall clock alone: what a widget
// extension has, reading the countdown the app stored in their shared app group.

extension StoredCountdown {
  /// A WidgetKit timeline for this countdown from `now` on, as
  /// ``Countdown/widgetTimeline(of:at:on:reloadsPerDay:maximumEntries:)`` on the wall clock: a running
  /// countdown counts to its end date, a paused one stays frozen, a finished one is in overtime from
  /// its end (or from `now`, if the wall clock was set back since).
  ///
  /// ```swift
  /// let plan = try stored.widgetTimeline(of: AdaptiveDisplay.coarse, at: Date(), reloadsPerDay: 40)
  /// ```
  ///
  /// - Throws: ``WallClockTimelineError`` when `now` is not finite or outside ``WallClockTimeline/supportedDates``.
  /// - Precondition: `reloadsPerDay >= 1` and `maximumEntries >= 3`.
  public func widgetTimeline<Display: CountdownDisplay>(
    of display: Display,
    at now: Date,
    reloadsPerDay: Int = 40,
    maximumEntries: Int = 100
  ) throws(WallClockTimelineError) -> WidgetTimelinePlan<Display.Value> {
    let (countdown, instant) = try onWallClock(at: now)
    return countdown.widgetTimeline(
      of: display, at: instant, on: WallClockInstant.identityTimeline, reloadsPerDay: reloadsPerDay,
      maximumEntries: maximumEntries)
  }

  /// A Live Activity for this countdown from `now` on, as
  /// ``Countdown/liveActivity(of:at:on:startedAt:maximumUpdates:dismissAfterFinish:)`` on the wall
  /// clock.
  ///
  /// - Throws: ``WallClockTimelineError`` when `now` or `activityStart` is not finite or outside
  ///   ``WallClockTimeline/supportedDates``.
  /// - Precondition: `maximumUpdates >= 1`.
  public func liveActivity<Display: CountdownDisplay>(
    of display: Display,
    at now: Date,
    startedAt activityStart: Date? = nil,
    maximumUpdates: Int = 16,
    dismissAfterFinish: Duration = .seconds(900)
  ) throws(WallClockTimelineError) -> LiveActivityPlan<Display.Value> where Display.Value: Hashable & Codable {
    let (countdown, instant) = try onWallClock(at: now)
    let start = try activityStart.map { date throws(WallClockTimelineError) in
      try WallClockInstant(date, as: .targetDate)
    }
    return countdown.liveActivity(
      of: display, at: instant, on: WallClockInstant.identityTimeline, startedAt: start,
      maximumUpdates: maximumUpdates, dismissAfterFinish: dismissAfterFinish)
  }

  /// This countdown on exact wall-clock instants as it stands at `now` (a finished one ended no later
  /// than `now`), and `now` as an instant.
  private func onWallClock(at now: Date) throws(WallClockTimelineError) -> (
    Countdown<WallClockInstant>, WallClockInstant
  ) {
    let instant = try WallClockInstant(now, as: .targetDate)
    var countdown = onWallClock
    if isFinished, let ended = countdown.end {
      countdown = countdown.retargeted(to: Swift.min(ended, instant))
    }
    return (countdown, instant)
  }
}
