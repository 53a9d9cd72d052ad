/// A countdown to an instant of a monotonic clock: a plain value that never reads a clock.
///
/// Remaining time is always *computed* (`end - now`), never decremented, so a countdown cannot drift,
/// cannot run slow, and is right at once after the process was suspended. Every question takes the
/// instant it is asked for, and every change returns a new value:
///
/// ```swift
/// let clock = ContinuousClock()
/// var countdown = Countdown(end: clock.now + .seconds(90), total: .seconds(90))
/// countdown.remaining(at: clock.now)        // 1:30
/// countdown = countdown.paused(at: clock.now)
/// countdown = countdown.resumed(at: clock.now) // continues exactly where it paused
/// ```
///
/// Remaining time goes negative after the end: that is *overtime*. A count-up stopwatch is the same
/// model read the other way: ``stopwatch(startedAt:)`` makes a countdown whose end is its start, and
/// ``elapsed(at:)`` (= −remaining) is the time since then.
public struct Countdown<Instant: InstantProtocol>: Hashable, Sendable where Instant.Duration == Duration {
  /// Whether the countdown is running towards its end or frozen.
  public enum State: Hashable, Sendable {
    /// Running: the remaining time at `now` is `end - now`.
    case running(end: Instant)
    /// Paused at `since` with `remaining` left; the remaining time does not change until resumed.
    case paused(remaining: Duration, since: Instant)
  }

  /// The current state.
  @inlinable public var state: State { storedState }

  /// Stored under another name so that inlinable code can build countdowns (a `private(set)`
  /// setter cannot be used from inlinable code).
  @usableFromInline var storedState: State

  /// The full length of the countdown, used for ``progress(at:)``; `nil` when there is none.
  public var total: Duration?

  /// A running countdown that ends at `end`.
  ///
  /// - Parameters:
  ///   - end: The instant at which the remaining time reaches zero.
  ///   - total: The full length, for ``progress(at:)``. Pass `nil` (the default) when progress makes
  ///     no sense, as for a stopwatch.
  @inlinable
  public init(end: Instant, total: Duration? = nil) {
    self.init(state: .running(end: end), total: total)
  }

  /// A countdown in `state`.
  @inlinable
  init(state: State, total: Duration?) {
    self.storedState = state
    self.total = total
  }

  /// A running countdown with `duration` left at `now`, whose total is `duration`.
  @inlinable
  public init(duration: Duration, startingAt now: Instant) {
    self.init(end: now.advanced(by: duration), total: duration)
  }

  /// A count-up stopwatch started at `start`: a countdown whose end is its start.
  ///
  /// Read it with ``elapsed(at:)`` and an elapsed display such as ``CountdownDisplay/elapsedSeconds``.
  @inlinable
  public static func stopwatch(startedAt start: Instant) -> Countdown {
    Countdown(end: start, total: nil)
  }

  /// Whether the countdown is paused.
  @inlinable
  public var isPaused: Bool {
    if case .paused = state { return true }
    return false
  }

  /// The instant the countdown ends at if it keeps running, or `nil` while it is paused.
  @inlinable
  public var end: Instant? {
    if case .running(let end) = state { return end }
    return nil
  }

  /// The time left at `now`: negative after the end (overtime), frozen while paused.
  @inlinable
  public func remaining(at now: Instant) -> Duration {
    switch state {
    case .running(let end): now.duration(to: end)
    case .paused(let remaining, _): remaining
    }
  }

  /// The time past the end at `now` (−``remaining(at:)``): for a stopwatch, the time since it started.
  @inlinable
  public func elapsed(at now: Instant) -> Duration {
    .zero - remaining(at: now)
  }

  /// The fraction of ``total`` still left at `now`, clamped to 0…1; `nil` without a positive total.
  @inlinable
  public func progress(at now: Instant) -> Double? {
    guard let total, total > .zero else { return nil }
    let left = remaining(at: now)
    if left <= .zero { return 0 }
    if left >= total { return 1 }
    return left / total
  }

  /// Whether no time is left at `now` (the remaining time is zero or negative).
  @inlinable
  public func isFinished(at now: Instant) -> Bool {
    remaining(at: now) <= .zero
  }

  /// The countdown frozen at `now`; unchanged if it is already paused.
  @inlinable
  public func paused(at now: Instant) -> Countdown {
    guard case .running = state else { return self }
    return Countdown(state: .paused(remaining: remaining(at: now), since: now), total: total)
  }

  /// The countdown running again from `now` with the time it had left when paused; unchanged if it
  /// is running.
  @inlinable
  public func resumed(at now: Instant) -> Countdown {
    guard case .paused(let remaining, _) = state else { return self }
    return Countdown(state: .running(end: now.advanced(by: remaining)), total: total)
  }

  /// The countdown counting to a new end; ``total`` is kept.
  ///
  /// A paused countdown stays paused, with the time that would have been left at the moment it was
  /// paused had it been counting to `end` all along.
  @inlinable
  public func retargeted(to end: Instant) -> Countdown {
    switch state {
    case .running: Countdown(state: .running(end: end), total: total)
    case .paused(_, let since):
      Countdown(state: .paused(remaining: since.duration(to: end), since: since), total: total)
    }
  }

  /// The countdown with `amount` more time left (less if `amount` is negative), running or paused.
  ///
  /// `extended(by: a).extended(by: b)` equals `extended(by: a + b)`.
  @inlinable
  public func extended(by amount: Duration) -> Countdown {
    switch state {
    case .running(let end): Countdown(state: .running(end: end.advanced(by: amount)), total: total)
    case .paused(let remaining, let since):
      Countdown(state: .paused(remaining: remaining + amount, since: since), total: total)
    }
  }

  /// The same countdown on another instant type: `convert` maps its end (or the instant it was
  /// paused at); remaining times and the total are kept exactly.
  @inlinable
  package func converted<Other: InstantProtocol>(_ convert: (Instant) -> Other) -> Countdown<Other>
  where Other.Duration == Duration {
    switch state {
    case .running(let end): Countdown<Other>(state: .running(end: convert(end)), total: total)
    case .paused(let remaining, let since):
      Countdown<Other>(state: .paused(remaining: remaining, since: convert(since)), total: total)
    }
  }

  /// A snapshot of this countdown at `now` as seen through `display`.
  @inlinable
  public func snapshot<Display: CountdownDisplay>(
    at now: Instant,
    display: Display
  ) -> CountdownSnapshot<Display.Value, Instant> {
    let left = remaining(at: now)
    return CountdownSnapshot(
      value: display.value(remaining: left),
      remaining: left,
      progress: progress(at: now),
      isPaused: isPaused,
      isFinished: left <= .zero,
      instant: now
    )
  }
}
