import Foundation
import PostgresNIO

extension ClaimConnection {
  /// Claims those of `ids` that need a worker now by the server's clock, skipping rows another
  /// transaction holds; returns the rows won. One statement, one transaction: a row is claimed by one
  /// worker only, and its attempt is logged with the claim.
  func claim(_ ids: [Int64], in table: DeadlineTable, by worker: String, lease: Duration) async throws
    -> [ExpiredDeadline]
  {
    guard !ids.isEmpty else { return [] }
    var binds = PostgresBindings()
    binds.append(ids)
    binds.append(lease.timeInterval)
    binds.append(worker)
    let returned = DeadlineTable.columns.map { "t.\($0)" }.joined(separator: ", ")
    let query = PostgresQuery(
      unsafeSQL: """
        WITH claimable AS (
          SELECT id FROM \(table.table)
          WHERE id = ANY($1::int8[]) AND paused_remaining IS NULL AND followed_up_at IS NULL AND ends_at IS NOT NULL
            AND ((expired_at IS NULL AND ends_at <= now())
              OR (expired_at IS NOT NULL AND (lease_until IS NULL OR lease_until <= now())))
          FOR UPDATE SKIP LOCKED
        ), claimed AS (
          UPDATE \(table.table) AS t
          SET expired_at = COALESCE(t.expired_at, now()), expiry_attempts = t.expiry_attempts + 1,
            lease_until = now() + make_interval(secs => $2)
          FROM claimable c WHERE t.id = c.id
          RETURNING \(returned), (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 AS expired_us
        ), logged AS (
          INSERT INTO \(table.attempts) (id, attempt, ends_at, worker, claimed_at)
          SELECT id, expiry_attempts, ends_at, $3, now() FROM claimed
          RETURNING id, seq
        )
        SELECT c.*, l.seq FROM claimed c JOIN logged l ON l.id = c.id
        """, binds: binds)
    var won: [ExpiredDeadline] = []
    let columns = (Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int, Int64, Int64).self
    for try await (id, title, end, paused, event, expired, lease, followedUp, attempts, microseconds, seq)
      in try await self.query(query).decode(columns)
    {
      let row = DeadlineRow(columns: (id, title, end, paused, event, expired, lease, followedUp, attempts))
      guard let expired, let end else { continue }
      won.append(
        ExpiredDeadline(
          row: row, expiredAt: expired, endsAt: end, attempt: attempts, expiredMicroseconds: microseconds,
          attemptRecord: seq))
    }
    return won
  }

  /// Extends the lease of a follow-up that is still running here.
  func extendLease(of expired: ExpiredDeadline, in table: DeadlineTable, by lease: Duration) async throws {
    try await setLease(of: expired, in: table, to: lease)
  }

  /// Gives a failed follow-up back: the lease now ends `delay` from now, when any worker may retry it.
  func release(_ expired: ExpiredDeadline, in table: DeadlineTable, retryIn delay: Duration) async throws {
    try await setLease(of: expired, in: table, to: delay)
  }

  private func setLease(of expired: ExpiredDeadline, in table: DeadlineTable, to duration: Duration) async throws {
    var binds = PostgresBindings()
    binds.append(expired.id)
    binds.append(expired.expiredMicroseconds)
    binds.append(expired.attempt)
    binds.append(duration.timeInterval)
    try await query(
      PostgresQuery(
        unsafeSQL: """
          UPDATE \(table.table) SET lease_until = now() + make_interval(secs => $4)
          WHERE id = $1 AND followed_up_at IS NULL AND expiry_attempts = $3
            AND (EXTRACT(EPOCH FROM expired_at) * 1000000)::int8 = $2
          """, binds: binds))
  }

  /// Records that the follow-up of `expired` finished (on the row, unless its deadline was moved since,
  /// and on the attempt), trying three times over a lost connection.
  func markFollowedUp(_ expired: ExpiredDeadline, in table: DeadlineTable) async throws {
    var binds = PostgresBindings()
    binds.append(expired.id)
    binds.append(expired.expiredMicroseconds)
    binds.append(expired.attemptRecord)
    let query = PostgresQuery(
      unsafeSQL: """
        WITH done AS (
          UPDATE \(table.table) SET followed_up_at = now(), lease_until = NULL
          WHERE id = $1 AND followed_up_at IS NULL AND (EXTRACT(EPOCH FROM expired_at) * 1000000)::int8 = $2
          RETURNING id
        )
        UPDATE \(table.attempts) SET followed_up_at = now() WHERE seq = $3
        """, binds: binds)
    var attempt = 0
    while true {
      do {
        try await self.query(query)
        return
      } catch {
        attempt += 1
        guard attempt < 3, !Task.isCancelled else { throw error }
        try await Task.sleep(for: .milliseconds(100 * attempt))
      }
    }
  }
}
