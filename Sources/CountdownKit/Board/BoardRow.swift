public import Foundation

/// One row of a ``CountdownBoard`` as a source of rows describes it: its ID, what it counts to, and its
/// total. A date or a duration, never an instant of the engine's clock, so that any store (a database,
/// a server, a push service) can send it.
///
/// ```swift
/// let row = BoardRow(id: order.id, deadline: .until(order.fittingEndsAt), total: .seconds(7_200))
/// let walkIn = BoardRow(id: walkInID, deadline: .after(.seconds(480)), total: .seconds(480))
/// ```
public struct BoardRow<ID: Hashable & Sendable>: Hashable, Sendable {
  /// What a row counts.
  public enum Deadline: Hashable, Sendable {
    /// Counts down to a wall-clock date, and follows the date when the wall clock is changed.
    case until(Date)
    /// Counts down this much time from the moment the board applies the row (negative: already over
    /// by that much), on the engine's monotonic clock: the row ends that long after, whatever the wall
    /// clock does.
    case after(Duration)
    /// Paused with this much time left (negative: paused in overtime). The row stays paused, even when
    /// the whole board resumes, until the source sends it running again.
    case paused(remaining: Duration)
  }

  /// The row's ID.
  public var id: ID
  /// What the row counts.
  public var deadline: Deadline
  /// The row's full length, for progress displays; `nil` for none.
  public var total: Duration?

  /// A row `id` counting `deadline`, with an optional `total` for progress.
  public init(id: ID, deadline: Deadline, total: Duration? = nil) {
    self.id = id
    self.deadline = deadline
    self.total = total
  }

  /// Row `id` counting what `countdown` has left at `now`: paused with its frozen time if it is paused,
  /// otherwise running for the time it has left (``Deadline/after(_:)``), with its total. For a
  /// countdown of the engine's clock, such as one restored from a ``StoredCountdown``.
  public init<Instant: InstantProtocol>(id: ID, countdown: Countdown<Instant>, at now: Instant)
  where Instant.Duration == Duration {
    let remaining = countdown.remaining(at: now)
    self.init(
      id: id, deadline: countdown.isPaused ? .paused(remaining: remaining) : .after(remaining), total: countdown.total)
  }
}
