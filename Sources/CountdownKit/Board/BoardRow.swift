/// One row of a ``CountdownBoard`` as a source of rows describes it: its ID, its ``Deadline`` and its
/// total.
///
/// ```swift
/// let row = BoardRow(id: order.id, deadline: .until(order.fittingEndsAt), total: .seconds(7_200))
/// let walkIn = BoardRow(id: walkInID, deadline: .after(.seconds(480)), total: .seconds(480))
/// ```
public struct BoardRow<ID: Hashable & Sendable>: Hashable, Sendable, Identifiable {
  /// The row's ID.
  public var id: ID
  /// What the row counts to. A paused row stays paused, even when the whole board resumes, until the
  /// source sends it running again.
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
