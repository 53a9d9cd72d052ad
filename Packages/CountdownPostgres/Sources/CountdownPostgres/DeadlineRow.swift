public import CountdownKit
public import Foundation
import PostgresNIO

/// One row of a ``DeadlineTable``, as read: dates are read defensively, so a NULL, infinite or absurd
/// value makes the ``deadline`` an `InvalidDeadline` instead of crashing or counting to garbage.
public struct DeadlineRow: Sendable, Hashable {
  /// The row's key.
  public var id: Int64
  /// What the deadline is for.
  public var title: String
  /// `ends_at` as stored (NULL is nil).
  public var endsAt: Date?
  /// `paused_remaining` in seconds as stored (NULL, meaning running, is nil).
  public var pausedRemaining: Double?
  /// `event_at`, when present and plausible (`Deadline.isPlausible(_:)`).
  public var eventAt: Date?
  /// When a worker expired the row.
  public var expiredAt: Date?
  /// Until when the worker that claimed it last has the follow-up.
  public var leaseUntil: Date?
  /// When the follow-up finished.
  public var followedUpAt: Date?
  /// How many times a worker claimed the row.
  public var expiryAttempts: Int
  /// When the row was discarded: its follow-up failed on every attempt allowed.
  public var discardedAt: Date?

  /// A row with these values.
  public init(
    id: Int64, title: String = "", endsAt: Date?, pausedRemaining: Double? = nil, eventAt: Date? = nil,
    expiredAt: Date? = nil, leaseUntil: Date? = nil, followedUpAt: Date? = nil, expiryAttempts: Int = 0,
    discardedAt: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.endsAt = endsAt
    self.pausedRemaining = pausedRemaining
    self.eventAt = eventAt
    self.expiredAt = expiredAt
    self.leaseUntil = leaseUntil
    self.followedUpAt = followedUpAt
    self.expiryAttempts = expiryAttempts
    self.discardedAt = discardedAt
  }

  /// The columns of ``DeadlineTable/selectList``, decoded.
  typealias Columns = (Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int, Date?)

  /// Reads a row selected with ``DeadlineTable/selectList`` (straight from its binary cells, or the
  /// generic way if a column's type is not the table's own).
  init(_ row: PostgresRow) throws {
    var cells = CellReader(row)
    if let columns = try? cells.deadlineColumns() {
      self.init(columns: columns)
    } else {
      self.init(columns: try row.decode(Columns.self))
    }
  }

  /// A row from its decoded columns.
  init(columns: Columns) {
    let (id, title, endsAt, paused, eventAt, expiredAt, leaseUntil, followedUpAt, attempts, discardedAt) = columns
    self.init(
      id: id, title: title, endsAt: endsAt, pausedRemaining: paused,
      eventAt: eventAt.flatMap { Deadline.isPlausible($0) ? $0 : nil }, expiredAt: expiredAt,
      leaseUntil: leaseUntil, followedUpAt: followedUpAt, expiryAttempts: attempts, discardedAt: discardedAt)
  }

  /// The row's deadline, read from `ends_at` and `paused_remaining` (`Deadline(endsAt:pausedRemaining:)`):
  /// counting to a date or paused, or why the values cannot be counted to.
  public var deadline: Result<Deadline, InvalidDeadline> {
    Result { () throws(InvalidDeadline) in try Deadline(endsAt: endsAt, pausedRemaining: pausedRemaining) }
  }
}
