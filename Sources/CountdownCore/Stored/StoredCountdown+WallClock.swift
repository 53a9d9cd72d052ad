public import Foundation

// A stored countdown read and changed on the wall clock alone, with no monotonic clock: for code
// that keeps countdowns in a database or on a server and edits them there ("pause order 7").

extension StoredCountdown {
  /// The same countdown on exact wall-clock instants (always valid: the stored values were checked).
  /// A finished countdown runs to its end date here; callers cap what that would show.
  var onWallClock: Countdown<WallClockInstant> {
    switch state {
    case .running(let end), .finished(let end):
      return Countdown(state: .running(end: Self.checkedInstant(end)), total: total)
    case .paused(let remaining, let since):
      return Countdown(state: .paused(remaining: remaining, since: Self.checkedInstant(since)), total: total)
    }
  }

  /// A date this value already checked, as an exact instant.
  private static func checkedInstant(_ date: Date) -> WallClockInstant {
    do {
      return try WallClockInstant(date, as: .targetDate)
    } catch {
      preconditionFailure("Internal inconsistency: a stored countdown holds an unchecked date: \(error)")
    }
  }

  /// `date` as an exact wall-clock instant, or a ``StoredCountdownError`` about the `date` argument.
  private static func argument(_ date: Date) throws(StoredCountdownError) -> WallClockInstant {
    try WallClockInstant(date, field: .date)
  }

  /// Whether the countdown had finished when it was stored.
  public var isFinished: Bool {
    if case .finished = state { return true }
    return false
  }

  /// The time left at `date` by the wall clock: negative after the end, frozen while paused, and never
  /// positive once finished.
  ///
  /// - Throws: ``StoredCountdownError`` when `date` is not finite or outside ``WallClockTimeline/supportedDates``.
  public func remaining(at date: Date) throws(StoredCountdownError) -> Duration {
    let remaining = onWallClock.remaining(at: try Self.argument(date))
    return isFinished ? Swift.min(remaining, .zero) : remaining
  }

  /// Whether no time is left at `date`.
  ///
  /// - Throws: ``StoredCountdownError`` when `date` is not finite or outside ``WallClockTimeline/supportedDates``.
  public func isFinished(at date: Date) throws(StoredCountdownError) -> Bool {
    try remaining(at: date) <= .zero
  }

  /// The countdown paused at `date` with the time it had left then; unchanged if already paused.
  ///
  /// - Throws: ``StoredCountdownError`` when `date` is bad, or the result would be.
  public func paused(at date: Date) throws(StoredCountdownError) -> StoredCountdown {
    guard !isPaused else { return self }
    let since = try Self.argument(date)
    return try StoredCountdown(
      Countdown(state: .paused(remaining: try remaining(at: date), since: since), total: total), total: total)
  }

  /// The countdown running again from `date` with the time it had left; unchanged unless paused.
  ///
  /// - Throws: ``StoredCountdownError`` when `date` is bad, or the new end date would be outside
  ///   ``WallClockTimeline/supportedDates``.
  public func resumed(at date: Date) throws(StoredCountdownError) -> StoredCountdown {
    guard isPaused else { return self }
    return try StoredCountdown(onWallClock.resumed(at: try Self.argument(date)), total: total)
  }

  /// The countdown counting to `end` (running again if it had finished); a paused one stays paused
  /// with the time from its pause to `end` left, as ``Countdown/retargeted(to:)``.
  ///
  /// - Throws: ``StoredCountdownError`` when `end` is bad, or the result would be.
  public func retargeted(to end: Date) throws(StoredCountdownError) -> StoredCountdown {
    try StoredCountdown(onWallClock.retargeted(to: try Self.argument(end)), total: total)
  }

  /// The countdown with `amount` more time left (less if negative), running or paused; a finished
  /// one runs again to its end date moved by `amount`.
  ///
  /// - Throws: ``StoredCountdownError`` when the result would be out of range.
  public func extended(by amount: Duration) throws(StoredCountdownError) -> StoredCountdown {
    try StoredCountdown.check(amount, field: .remaining)
    return try StoredCountdown(onWallClock.extended(by: amount), total: total)
  }

  /// The dates in `start...end` at which `display`'s value changes, at most `limit` of them: as
  /// ``CountdownDisplay/changes(until:from:through:limit:)`` for a running countdown, one element for
  /// a paused one, and overtime only for a finished one.
  ///
  /// - Throws: ``WallClockTimelineError`` when `start` or `end` is not finite or outside ``WallClockTimeline/supportedDates``.
  /// - Precondition: `limit` is zero or more.
  public func changes<Display: CountdownDisplay>(
    of display: Display,
    from start: Date,
    through end: Date,
    limit: Int
  ) throws(WallClockTimelineError) -> [CountdownChange<Date, Display.Value>] {
    var countdown = onWallClock
    if isFinished, let ended = countdown.end {
      countdown = countdown.retargeted(to: Swift.min(ended, try WallClockInstant(start, as: .targetDate)))
    }
    return try countdown.changes(
      of: display, from: start, through: end, on: WallClockInstant.identityTimeline, limit: limit)
  }

  /// The stored form of a countdown on exact wall-clock instants (running or paused).
  init(_ countdown: Countdown<WallClockInstant>, total: Duration?) throws(StoredCountdownError) {
    switch countdown.state {
    case .running(let end):
      try self.init(state: .running(end: Date.stored(end.sinceReferenceDate, field: .end)), total: total)
    case .paused(let remaining, let since):
      try self.init(
        state: .paused(remaining: remaining, since: Date.stored(since.sinceReferenceDate, field: .since)), total: total)
    }
  }
}

extension Date {
  /// The `Date` nearest to `sinceReferenceDate` after 2001-01-01, or an error about `field` when it
  /// is outside ``WallClockTimeline/supportedDates`` (checked before rounding, so nothing huge reaches a `Double`).
  static func stored(_ sinceReferenceDate: Duration, field: StoredCountdownError.Field) throws(StoredCountdownError)
    -> Date
  {
    let date = Date(attosecondsSinceReferenceDate: sinceReferenceDate.attosecondCount)
    let limit = Duration.seconds(TimelineLimits.dateSeconds)
    guard .zero - limit <= sinceReferenceDate && sinceReferenceDate <= limit else {
      throw .dateOutOfRange(field, date)
    }
    return date
  }
}
