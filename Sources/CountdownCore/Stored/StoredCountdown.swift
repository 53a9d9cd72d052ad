public import Foundation

/// A countdown as wall-clock facts and durations only: what to store so that it survives a relaunch
/// or a reboot.
///
/// A ``Countdown`` counts to an instant of a monotonic clock, and monotonic instants mean nothing
/// after the process ends: a new process (and, after a reboot, a clock that restarted from zero)
/// reads different numbers. A stored countdown holds only what keeps its meaning: the end as a
/// wall-clock `Date` while it runs, the frozen time left (and the date it was paused) while it is
/// paused, whether it had already finished, and the total. Make one with
/// ``Countdown/stored(at:on:)`` and turn it back into a countdown on the new process's clock with
/// ``restored(at:on:)``:
///
/// ```swift
/// // Going to the background, or after every change:
/// let stored = try turn.stored(at: engine.now, on: engine.timeline)
/// let data = try JSONEncoder().encode(stored)
///
/// // At the next launch:
/// let saved = try JSONDecoder().decode(StoredCountdown.self, from: data)
/// let restored = saved.restored(at: engine.now, on: engine.timeline)
/// ```
///
/// After a restore, a running countdown has the time left that the wall clock says (the stored end
/// minus the date now): if the wall clock was changed while the app was not running, nothing can
/// tell, since no monotonic clock survives a reboot. A paused countdown has exactly the time it had
/// left, and one that had finished is finished, even if the wall clock was set back since.
///
/// Every value is checked when it is made or decoded: dates must be finite and within
/// ``WallClockTimeline/supportedDates``, durations within ±``maximumDuration``, and a total not negative.
/// Bad data throws a ``StoredCountdownError`` (wrapped in a `DecodingError` when decoding); it never
/// traps. The JSON shape is documented under ``init(from:)``.
public struct StoredCountdown: Hashable, Sendable {
  /// Whether the countdown runs towards a date or is frozen.
  public enum State: Hashable, Sendable {
    /// Running towards `end`, a date of the clock the countdown was stored on (the timeline's
    /// reference clock).
    case running(end: Date)
    /// Paused at the date `since` with `remaining` left (negative: paused in overtime).
    case paused(remaining: Duration, since: Date)
    /// Ran to its end at `end` before it was stored: finished whatever the wall clock reads later,
    /// and in overtime from `end` on.
    case finished(end: Date)
  }

  /// The state: a running end date, a frozen time left, or a past end.
  public let state: State
  /// The full length of the countdown, for progress; `nil` when there is none.
  public let total: Duration?

  /// The longest duration a stored countdown holds, either way: 200,000 years.
  public static var maximumDuration: Duration { TimelineLimits.referenceOffset }

  /// A stored countdown in `state`, checked.
  ///
  /// - Throws: ``StoredCountdownError`` for a date that is not finite or outside
  ///   ``WallClockTimeline/supportedDates``, a duration beyond ±``maximumDuration``, or a negative total.
  public init(state: State, total: Duration?) throws(StoredCountdownError) {
    switch state {
    case .running(let end), .finished(let end):
      _ = try WallClockInstant(end, field: .end)
    case .paused(let remaining, let since):
      try Self.check(remaining, field: .remaining)
      _ = try WallClockInstant(since, field: .since)
    }
    if let total {
      guard total >= .zero else { throw .negativeTotal(total) }
      try Self.check(total, field: .total)
    }
    self.state = state
    self.total = total
  }

  /// A running countdown to `end`.
  ///
  /// - Throws: ``StoredCountdownError`` as ``init(state:total:)``.
  public init(end: Date, total: Duration? = nil) throws(StoredCountdownError) {
    try self.init(state: .running(end: end), total: total)
  }

  /// Whether the countdown is paused.
  public var isPaused: Bool {
    if case .paused = state { return true }
    return false
  }

  /// The end date while running or finished; `nil` while paused.
  public var end: Date? {
    switch state {
    case .running(let end), .finished(let end): end
    case .paused: nil
    }
  }

  /// Throws unless `duration` is within ±``maximumDuration``.
  static func check(_ duration: Duration, field: StoredCountdownError.Field) throws(StoredCountdownError) {
    guard duration.isSupportedReferenceOffset else { throw .durationOutOfRange(field, duration) }
  }
}

extension WallClockInstant {
  /// `date` as an exact instant, or a ``StoredCountdownError`` about `field`.
  init(_ date: Date, field: StoredCountdownError.Field) throws(StoredCountdownError) {
    do throws(WallClockTimelineError) {
      try self.init(date, as: .targetDate)
    } catch {
      switch error {
      case .nonFiniteDate: throw .nonFiniteDate(field)
      default: throw .dateOutOfRange(field, date)
      }
    }
  }
}
