import Foundation
import PostgresNIO

extension ClaimConnection {
  /// Claims those of `ids` that need a worker now by the server's clock, skipping rows another
  /// transaction holds; returns the rows won. One statement, one transaction: a row is claimed by one
  /// worker only, and its attempt is logged with the claim.
  ///
  /// The lease is counted from the server's clock as the row is updated (`clock_timestamp()`, not the
  /// transaction's start), and the statement is cancelled by the server if it runs longer than
  /// ``statementTimeout`` (at most half a lease): a claim commits with at least half its lease ahead.
  /// `changed_xid` is stamped here, so the table's row trigger is not called for each claimed row.
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
            lease_until = clock_timestamp() + make_interval(secs => $2), changed_xid = pg_current_xact_id()
          FROM claimable c WHERE t.id = c.id
          RETURNING \(returned), (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 AS expired_us
        ), logged AS (
          INSERT INTO \(table.attempts) (id, attempt, ends_at, worker, claimed_at, lease_until)
          SELECT id, expiry_attempts, ends_at, $3, now(), lease_until FROM claimed
          RETURNING id, seq
        )
        SELECT c.*, l.seq FROM claimed c JOIN logged l ON l.id = c.id
        """, binds: binds)
    let logger = logger
    return try await run("claiming \(ids.count) rows") { connection in
      var won: [ExpiredDeadline] = []
      let columns = (Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int, Int64, Int64).self
      for try await (id, title, end, paused, event, expired, lease, followedUp, attempts, microseconds, seq)
        in try await connection.queryUnlessClosed(query, logger: logger).decode(columns)
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
  }

  /// Extends the leases of follow-ups this worker holds (running or waiting to run) to `lease` from now,
  /// in one statement; a row whose expiry or attempt changed since (moved, or taken over) is left alone.
  func extendLeases(of held: [ExpiredDeadline], in table: DeadlineTable, by lease: Duration) async throws {
    guard !held.isEmpty else { return }
    try await setLeases(of: held, in: table, to: lease, doing: "extending \(held.count) leases")
  }

  /// Gives a failed follow-up back: the lease now ends `delay` from now, when any worker may retry it.
  func release(_ expired: ExpiredDeadline, in table: DeadlineTable, retryIn delay: Duration) async throws {
    try await setLeases(of: [expired], in: table, to: delay, doing: "releasing row \(expired.id)")
  }

  private func setLeases(
    of rows: [ExpiredDeadline], in table: DeadlineTable, to duration: Duration, doing action: String
  ) async throws {
    var binds = PostgresBindings()
    binds.append(rows.map(\.id))
    binds.append(rows.map(\.expiredMicroseconds))
    binds.append(rows.map { Int64($0.attempt) })
    binds.append(duration.timeInterval)
    try await execute(
      action,
      PostgresQuery(
        unsafeSQL: """
          UPDATE \(table.table) AS t
          SET lease_until = clock_timestamp() + make_interval(secs => $4), changed_xid = pg_current_xact_id()
          FROM unnest($1::int8[], $2::int8[], $3::int8[]) AS d(id, expired_us, attempt)
          WHERE t.id = d.id AND t.followed_up_at IS NULL AND t.expiry_attempts = d.attempt
            AND (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 = d.expired_us
          """, binds: binds))
  }

  /// Records that the follow-ups of `rows` finished (on each row, unless its deadline was moved since,
  /// and on its attempt), in one statement, trying three times over a lost connection.
  func markFollowedUp(_ rows: [ExpiredDeadline], in table: DeadlineTable) async throws {
    guard !rows.isEmpty else { return }
    var binds = PostgresBindings()
    binds.append(rows.map(\.id))
    binds.append(rows.map(\.expiredMicroseconds))
    binds.append(rows.map(\.attemptRecord))
    let query = PostgresQuery(
      unsafeSQL: """
        WITH done AS (
          SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[]) AS d(id, expired_us, seq)
        ), marked AS (
          UPDATE \(table.table) AS t
          SET followed_up_at = now(), lease_until = NULL, changed_xid = pg_current_xact_id()
          FROM done d
          WHERE t.id = d.id AND t.followed_up_at IS NULL
            AND (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 = d.expired_us
          RETURNING t.id
        )
        UPDATE \(table.attempts) AS a SET followed_up_at = now() FROM done d WHERE a.seq = d.seq
        """, binds: binds)
    var attempt = 0
    while true {
      do {
        try await execute("recording \(rows.count) follow-ups", query)
        return
      } catch {
        attempt += 1
        guard attempt < 3, !Task.isCancelled else { throw error }
        try await Task.sleep(for: .milliseconds(100 * attempt))
      }
    }
  }
}
