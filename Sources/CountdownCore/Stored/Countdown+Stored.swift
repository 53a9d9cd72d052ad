import Foundation

// Between a countdown on a monotonic clock and its stored form, through a timeline.

extension Countdown {
  /// This countdown as wall-clock facts and durations, to store and restore after a relaunch.
  ///
  /// A running countdown is stored as its end date on `timeline` (in the timeline's reference
  /// time: the server's, if it has a reference offset), as finished if no time is left at `now`; a
  /// paused one as its frozen time left and the date it was paused. Nothing of the monotonic clock is
  /// kept. Store again after every change (pause, resume, retarget), or when the app goes to the
  /// background.
  ///
  /// - Parameters:
  ///   - now: The current instant, to tell whether the countdown has finished.
  ///   - timeline: Converts this countdown's instants to dates; an engine's ``WallClockTimeline``.
  /// - Throws: ``StoredCountdownError`` when a date lies outside ``WallClockTimeline/supportedDates`` (an
  ///   instant absurdly far from the timeline's anchor), a duration beyond
  ///   ±``StoredCountdown/maximumDuration``, or the total is negative.
  public func stored(at now: Instant, on timeline: WallClockTimeline<Instant>) throws(StoredCountdownError)
    -> StoredCountdown
  {
    func date(of instant: Instant, field: StoredCountdownError.Field) throws(StoredCountdownError) -> Date {
      let attoseconds = timeline.localAttoseconds(at: instant) + timeline.referenceOffset.attosecondCount
      return try Date.stored(Duration(attosecondCount: attoseconds), field: field)
    }
    switch state {
    case .running(let end):
      let date = try date(of: end, field: .end)
      return try StoredCountdown(state: isFinished(at: now) ? .finished(end: date) : .running(end: date), total: total)
    case .paused(let remaining, let since):
      return try StoredCountdown(
        state: .paused(remaining: remaining, since: date(of: since, field: .since)), total: total)
    }
  }
}

extension StoredCountdown {
  /// The countdown on the clock `timeline` converts to: the current process's, after a relaunch.
  ///
  /// A running countdown ends at the instant at which `timeline`'s reference clock reads the stored
  /// end date, so its time left is what the wall clock says (and one whose end date has passed is
  /// finished, or in overtime). A paused one is paused with the same time left. One that had
  /// finished ends at its end date or at `now`, whichever is earlier, so it is finished even if the
  /// wall clock was set back since. Build `timeline` with the reference offset the countdown was
  /// stored with, if it had one.
  ///
  /// - Parameters:
  ///   - now: The current instant of the clock `timeline` converts to.
  ///   - timeline: Converts the stored dates to instants; an engine's ``WallClockTimeline``.
  public func restored<Instant>(at now: Instant, on timeline: WallClockTimeline<Instant>) -> Countdown<Instant> {
    func instant(for date: Date) -> Instant {
      do {
        return try timeline.instant(for: date)
      } catch {
        preconditionFailure("Internal inconsistency: a stored countdown holds an unchecked date: \(error)")
      }
    }
    switch state {
    case .running(let end):
      return Countdown(state: .running(end: instant(for: end)), total: total)
    case .paused(let remaining, let since):
      return Countdown(state: .paused(remaining: remaining, since: instant(for: since)), total: total)
    case .finished(let end):
      return Countdown(state: .running(end: Swift.min(instant(for: end), now)), total: total)
    }
  }
}
