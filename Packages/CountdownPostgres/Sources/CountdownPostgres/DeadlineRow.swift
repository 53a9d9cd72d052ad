public import Foundation
import PostgresNIO

/// One row of a ``DeadlineTable``, as read: dates are read defensively, so a NULL, infinite or absurd
/// value makes the deadline ``State-swift.enum/invalid(_:)`` instead of crashing or counting to garbage.
public struct DeadlineRow: Sendable, Hashable {
  /// What the row's deadline is doing.
  public enum State: Sendable, Hashable {
    /// Counting down to a wall-clock date.
    case running(end: Date)
    /// Paused with this much time left.
    case paused(remaining: Duration)
    /// The row's values cannot be counted to; the message says why.
    case invalid(String)
  }

  /// Dates outside 1970...2200 are taken for garbage (a unit mix-up, `infinity`, a corrupt value).
  public static let plausibleDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 7_258_118_400)

  /// The row's key.
  public var id: Int64
  /// What the deadline is for.
  public var title: String
  /// `ends_at` as stored (NULL is nil).
  public var endsAt: Date?
  /// `paused_remaining` in seconds as stored (NULL, meaning running, is nil).
  public var pausedRemaining: Double?
  /// `event_at`, when present and plausible.
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
      eventAt: eventAt.flatMap { Self.plausibleDates.contains($0) ? $0 : nil }, expiredAt: expiredAt,
      leaseUntil: leaseUntil, followedUpAt: followedUpAt, expiryAttempts: attempts, discardedAt: discardedAt)
  }

  /// The deadline's state, judged from `ends_at` and `paused_remaining`.
  public var state: State {
    if let pausedRemaining {
      guard pausedRemaining.isFinite, (0...3_155_760_000).contains(pausedRemaining) else {
        return .invalid("paused_remaining is out of range: \(pausedRemaining)")
      }
      return .paused(remaining: .milliseconds(Int64((pausedRemaining * 1_000).rounded())))
    }
    guard let endsAt else { return .invalid("ends_at is NULL") }
    guard endsAt.timeIntervalSince1970.isFinite, Self.plausibleDates.contains(endsAt) else {
      return .invalid("ends_at is out of range: \(endsAt)")
    }
    return .running(end: endsAt)
  }
}
