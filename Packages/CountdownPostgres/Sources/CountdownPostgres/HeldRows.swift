import Synchronization

/// The rows a worker has claimed and not yet recorded as followed up (waiting to run, running, or being
/// recorded), with how long each lease is sure to last: their leases are extended together while the
/// worker can reach the server, and a follow-up whose lease could not be extended is given up before
/// the lease ends.
final class HeldRows: Sendable {
  /// One held row.
  struct Entry: Sendable {
    var expired: ExpiredDeadline
    /// The lease ends no sooner than this on the server: the statement that set it was sent at this
    /// instant minus the lease, and the server counted the lease from when it ran.
    var validUntil: ContinuousClock.Instant
    /// Why the row is no longer this worker's (its lease could not be found: the row was moved, deleted
    /// or taken over), if it is not.
    var lost: String?
  }

  private let rows = Mutex<[Int64: Entry]>([:])

  /// Rows claimed by a statement sent at `sent`, with leases of `lease`.
  func add(_ claimed: [ExpiredDeadline], sent: ContinuousClock.Instant, lease: Duration) {
    rows.withLock { rows in
      for expired in claimed { rows[expired.id] = Entry(expired: expired, validUntil: sent + lease) }
    }
  }

  /// An extension sent at `sent` of the leases of `attempted` found the rows `kept` (the others are lost).
  func extended(_ attempted: [ExpiredDeadline], kept: Set<Int64>, sent: ContinuousClock.Instant, lease: Duration) {
    rows.withLock { rows in
      for expired in attempted {
        guard var entry = rows[expired.id], entry.expired.attempt == expired.attempt else { continue }
        if kept.contains(expired.id) {
          entry.validUntil = max(entry.validUntil, sent + lease)
        } else {
          entry.lost = "its lease is gone (the row was moved, deleted or taken over)"
        }
        rows[expired.id] = entry
      }
    }
  }

  func remove(_ ids: some Sequence<Int64>) {
    rows.withLock { rows in
      for id in ids { rows[id] = nil }
    }
  }

  var all: [ExpiredDeadline] { rows.withLock { $0.values.map(\.expired) } }

  /// The rows whose leases are sure to last only until before `instant` (and are still this worker's),
  /// those that end first first.
  func expiring(before instant: ContinuousClock.Instant) -> [ExpiredDeadline] {
    rows.withLock { rows in
      rows.values.filter { $0.lost == nil && $0.validUntil < instant }.sorted { $0.validUntil < $1.validUntil }
        .map(\.expired)
    }
  }

  /// Row `id`'s entry, if it is held.
  func entry(_ id: Int64) -> Entry? { rows.withLock { $0[id] } }
}
