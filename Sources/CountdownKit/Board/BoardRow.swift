public import Foundation

/// One row of a ``CountdownBoard`` as a source of rows describes it: its ID and what it counts to, in
/// wall-clock terms only, so that any store (a database, a server, a push service) can send it without
/// knowing the engine's clock.
///
/// ```swift
/// let row = BoardRow(id: order.id, deadline: .until(order.fittingEndsAt), total: .seconds(7_200))
/// ```
public struct BoardRow<ID: Hashable & Sendable>: Hashable, Sendable {
  /// What a row counts.
  public enum Deadline: Hashable, Sendable {
    /// Counts down to a wall-clock date, and follows the date when the wall clock is changed.
    case until(Date)
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
}
