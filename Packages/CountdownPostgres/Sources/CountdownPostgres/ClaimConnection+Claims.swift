import Foundation
import PostgresNIO

extension ClaimConnection {
  /// What a claim statement found.
  struct ClaimResult: Sendable {
    /// The rows this worker won.
    var won: [ExpiredDeadline] = []
    /// Rows asked for and not won, as they are now (claimed by another worker, locked, not due, or
    /// discarded by this statement because their last allowed attempt ended).
    var others: [DeadlineRow] = []
    /// Ids asked for that are not in the table.
    var missing: [Int64] = []
  }

  /// Claims those of `ids` that need a worker now by the server's clock, skipping rows another
  /// transaction holds; returns the rows won, the others as they are now, and the ids that are gone.
  /// One statement, one transaction: a row is claimed by one worker only, and its attempt is logged
  /// with the claim. A row whose lease ran out after its last allowed attempt (`maxAttempts` since an
  /// operator last retried it) is discarded instead of claimed.
  ///
  /// The lease is counted from the server's clock as the row is updated (`clock_timestamp()`, not the
  /// transaction's start), and the statement is cancelled by the server if it runs longer than
  /// ``statementTimeout`` (at most half a lease): a claim commits with at least half its lease ahead.
  /// `changed_xid` is stamped here, so the table's row trigger is not called for each claimed row.
  ///
  /// A paused row is left out after it is locked, not by the `WHERE` that locks: with
  /// `paused_remaining IS NULL` there, that `WHERE` would match the predicate of the `<name>_due` index,
  /// and on a table not yet analyzed the planner reckons that index nearly empty and reads all of it
  /// instead of the ids' keys. The updates name their rows by an array of ids rather than a join, and the
  /// attempt log's numbers come back as lines of their own, paired with the rows here (see
  /// ``sameAttempt``).
  func claim(_ ids: [Int64], in table: DeadlineTable, by worker: String, lease: Duration, maxAttempts: Int = .max)
    async throws -> ClaimResult
  {
    guard !ids.isEmpty else { return ClaimResult() }
    var binds = PostgresBindings()
    binds.append(ids)
    binds.append(lease.timeInterval)
    binds.append(worker)
    binds.append(Int64(min(maxAttempts, Int(Int32.max))))
    let columns = DeadlineTable.columns
    let returned = columns.map { "t.\($0)" }.joined(separator: ", ")
    let query = PostgresQuery(
      unsafeSQL: """
        WITH locked AS (
          SELECT id, expiry_attempts - attempt_base >= $4 AS exhausted, paused_remaining IS NOT NULL AS paused
          FROM \(table.table)
          WHERE id = ANY($1::int8[]) AND followed_up_at IS NULL AND discarded_at IS NULL AND ends_at IS NOT NULL
            AND ((expired_at IS NULL AND ends_at <= now())
              OR (expired_at IS NOT NULL AND (lease_until IS NULL OR lease_until <= now())))
          FOR UPDATE SKIP LOCKED
        ), candidates AS (
          SELECT id, exhausted FROM locked WHERE NOT paused
        ), claimed AS (
          UPDATE \(table.table) AS t
          SET expired_at = COALESCE(t.expired_at, now()), expiry_attempts = t.expiry_attempts + 1,
            lease_until = clock_timestamp() + make_interval(secs => $2), changed_xid = pg_current_xact_id()
          WHERE t.id = ANY(ARRAY(SELECT id FROM candidates WHERE NOT exhausted))
          RETURNING \(returned), (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 AS expired_us
        ), discarded AS (
          UPDATE \(table.table) AS t
          SET discarded_at = now(), lease_until = NULL, changed_xid = pg_current_xact_id()
          WHERE t.id = ANY(ARRAY(SELECT id FROM candidates WHERE exhausted))
          RETURNING \(returned)
        ), logged AS (
          INSERT INTO \(table.attempts) (id, attempt, ends_at, worker, claimed_at, lease_until)
          SELECT id, expiry_attempts, ends_at, $3, now(), lease_until FROM claimed
          RETURNING id, seq
        )
        SELECT 0, c.*, NULL::int8 FROM claimed c
        UNION ALL
        SELECT 2, l.id, '', \(Self.noRow), NULL::int8, l.seq FROM logged l
        UNION ALL
        SELECT 1, d.*, NULL::int8, NULL::int8 FROM discarded d
        UNION ALL
        SELECT 1, \(returned), NULL::int8, NULL::int8 FROM \(table.table) t
        WHERE t.id = ANY($1::int8[]) AND t.id <> ALL(ARRAY(SELECT id FROM candidates))
        """, binds: binds)
    let logger = logger
    return try await run("claiming \(ids.count) rows") { connection in
      var result = ClaimResult()
      var seen = Set<Int64>()
      var won: [(row: DeadlineRow, expired: Date, end: Date, microseconds: Int64)] = []
      var records: [Int64: Int64] = [:]
      let types = (Int32, Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int, Date?, Int64?, Int64?).self
      for try await (kind, id, title, end, paused, event, expired, lease, followedUp, attempts, discarded, us, seq)
        in try await connection.queryUnlessClosed(query, logger: logger).decode(types)
      {
        seen.insert(id)
        if kind == 2 {
          if let seq { records[id] = seq }
          continue
        }
        let row = DeadlineRow(
          columns: (id, title, end, paused, event, expired, lease, followedUp, attempts, discarded))
        guard kind == 0 else {
          result.others.append(row)
          continue
        }
        guard let expired, let end, let us else { continue }
        won.append((row, expired, end, us))
      }
      for (row, expired, end, us) in won {
        guard let seq = records[row.id] else { continue }
        result.won.append(
          ExpiredDeadline(
            row: row, expiredAt: expired, endsAt: end, attempt: row.expiryAttempts, expiredMicroseconds: us,
            attemptRecord: seq))
      }
      result.missing = ids.filter { !seen.contains($0) }
      return result
    }
  }

  /// Extends the leases of follow-ups this worker holds (running or waiting to run) to `lease` from now,
  /// in one statement; a row whose expiry or attempt changed since (moved, deleted, or taken over) is
  /// left alone. Returns the ids whose leases were extended.
  func extendLeases(of held: [ExpiredDeadline], in table: DeadlineTable, by lease: Duration) async throws
    -> Set<Int64>
  {
    guard !held.isEmpty else { return [] }
    var binds = PostgresBindings()
    Self.bindAttempts(held, into: &binds)
    binds.append(lease.timeInterval)
    let logger = logger
    let query = PostgresQuery(
      unsafeSQL: """
        UPDATE \(table.table) AS t
        SET lease_until = clock_timestamp() + make_interval(secs => $4), changed_xid = pg_current_xact_id()
        WHERE \(Self.sameAttempt)
        RETURNING t.id
        """, binds: binds)
    return try await run("extending \(held.count) leases") { connection in
      var kept = Set<Int64>()
      for try await id in try await connection.queryUnlessClosed(query, logger: logger).decode(Int64.self) {
        kept.insert(id)
      }
      return kept
    }
  }

  /// Gives follow-ups back at once (a worker that drains, or stops): their leases end now, and any
  /// worker may take them over; the attempt is not counted as failed.
  func giveBack(_ rows: [ExpiredDeadline], in table: DeadlineTable) async throws {
    guard !rows.isEmpty else { return }
    var binds = PostgresBindings()
    Self.bindAttempts(rows, into: &binds)
    try await execute(
      "giving back \(rows.count) follow-ups",
      PostgresQuery(
        unsafeSQL: """
          UPDATE \(table.table) AS t SET lease_until = now(), changed_xid = pg_current_xact_id()
          WHERE \(Self.sameAttempt)
          """, binds: binds))
  }

  /// Records that a follow-up failed with `problem`: the row is retried after `baseDelay` doubled for
  /// each attempt since an operator last retried it (at most `maxDelay`), or discarded when that was the
  /// `maxAttempts`-th. Returns whether the row was discarded (nil when its attempt is not the row's any
  /// more: moved, deleted or taken over).
  func fail(
    _ expired: ExpiredDeadline, problem: String, in table: DeadlineTable, baseDelay: Duration, maxDelay: Duration,
    maxAttempts: Int
  ) async throws -> Bool? {
    var binds = PostgresBindings()
    Self.bindAttempts([expired], into: &binds)
    binds.append(baseDelay.timeInterval)
    binds.append(maxDelay.timeInterval)
    binds.append(Int64(min(maxAttempts, Int(Int32.max))))
    binds.append(String(problem.prefix(2_000)))
    binds.append(expired.attemptRecord)
    let logger = logger
    let query = PostgresQuery(
      unsafeSQL: """
        WITH failed AS (
          UPDATE \(table.table) AS t
          SET lease_until = CASE WHEN t.expiry_attempts - t.attempt_base >= $6 THEN NULL
              ELSE clock_timestamp() + make_interval(secs => least($5,
                $4 * power(2, greatest(t.expiry_attempts - t.attempt_base - 1, 0)::float8))) END,
            discarded_at = CASE WHEN t.expiry_attempts - t.attempt_base >= $6 THEN now() END,
            changed_xid = pg_current_xact_id()
          WHERE \(Self.sameAttempt)
          RETURNING t.discarded_at IS NOT NULL AS discarded
        ), logged AS (
          UPDATE \(table.attempts) SET failed_at = now(), error = $7 WHERE seq = $8
        )
        SELECT discarded FROM failed
        """, binds: binds)
    return try await run("recording the failure of row \(expired.id)") { connection in
      var discarded: Bool?
      for try await value in try await connection.queryUnlessClosed(query, logger: logger).decode(Bool.self) {
        discarded = value
      }
      return discarded
    }
  }

  /// Records that the follow-ups of `rows` finished, on each row and on its attempt, in one statement,
  /// trying three times over a lost connection. A row whose expiry or attempt changed since (moved,
  /// deleted, taken over after its lease ran out) is not recorded. Returns the ids recorded (by this
  /// statement, or by an earlier try whose answer was lost).
  func markFollowedUp(_ rows: [ExpiredDeadline], in table: DeadlineTable) async throws -> Set<Int64> {
    guard !rows.isEmpty else { return [] }
    var binds = PostgresBindings()
    Self.bindAttempts(rows, into: &binds)
    binds.append(rows.map(\.attemptRecord))
    let query = PostgresQuery(
      unsafeSQL: """
        WITH marked AS (
          UPDATE \(table.table) AS t
          SET followed_up_at = now(), lease_until = NULL, changed_xid = pg_current_xact_id()
          WHERE \(Self.sameAttempt)
          RETURNING t.id, ($4::int8[])[array_position($1::int8[], t.id)] AS seq
        ), logged AS (
          UPDATE \(table.attempts) AS a SET followed_up_at = now() WHERE a.seq = ANY(ARRAY(SELECT seq FROM marked))
        )
        SELECT id FROM marked
        UNION
        -- One probe of the log's key per row: recorded by an earlier try whose answer was lost.
        SELECT d.id FROM unnest($1::int8[], $4::int8[]) AS d(id, seq)
        WHERE (SELECT a.followed_up_at FROM \(table.attempts) a WHERE a.seq = d.seq) IS NOT NULL
        """, binds: binds)
    let logger = logger
    var attempt = 0
    while true {
      do {
        return try await run("recording \(rows.count) follow-ups") { connection in
          var recorded = Set<Int64>()
          for try await id in try await connection.queryUnlessClosed(query, logger: logger).decode(Int64.self) {
            recorded.insert(id)
          }
          return recorded
        }
      } catch {
        attempt += 1
        guard attempt < 3, !Task.isCancelled else { throw error }
        try await Task.sleep(for: .milliseconds(100 * attempt))
      }
    }
  }

  /// Up to `limit` rows that need a worker now by the server's clock (deadline passed and not expired,
  /// or expired and its lease over), by the date they needed one, after `after` (a date and id, for the
  /// next page of a sweep that filled its page): read by the table's `<name>_due` index.
  func due(in table: DeadlineTable, limit: Int, after: (Date, Int64)?, overdueBy: Duration) async throws
    -> [DeadlineRow]
  {
    var binds = PostgresBindings()
    binds.append(limit)
    binds.append(after?.0 ?? Date(timeIntervalSince1970: 0))
    binds.append(after?.1 ?? .min)
    binds.append(overdueBy.timeInterval)
    let due = "COALESCE(lease_until, ends_at)"
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT \(table.selectList) FROM \(table.table)
        WHERE followed_up_at IS NULL AND discarded_at IS NULL AND paused_remaining IS NULL
          AND \(due) <= now() - make_interval(secs => $4)
          AND (\(due), id) > ($2::timestamptz, $3::int8)
        ORDER BY \(due), id LIMIT $1
        """, binds: binds)
    let logger = logger
    return try await run("sweeping \(table.qualifiedName) for due rows") { connection in
      var rows: [DeadlineRow] = []
      for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
        rows.append(try DeadlineRow(row))
      }
      return rows
    }
  }

  /// A row's attempt in a statement: its id, expiry and attempt as the claim left them, bound by
  /// ``bindAttempts(_:into:)`` and looked up by the row's place in `$1`.
  ///
  /// The statements name their rows by key and compare them to the arrays without a join: a join is
  /// planned from the table's statistics, and on a table just filled, before `ANALYZE` has seen it, the
  /// planner reckons almost no row has a null `followed_up_at` and `discarded_at` and plans a scan of the
  /// whole table, or a nested loop over both sides, once per statement. `array_position` makes each
  /// statement's cost grow with the square of its batch (at most ``DeadlineExpiryWorker`` `claimBatch`
  /// rows, compared in C), never with the table.
  static let sameAttempt = """
    t.id = ANY($1::int8[]) AND t.followed_up_at IS NULL AND t.discarded_at IS NULL
      AND t.expiry_attempts = ($3::int8[])[array_position($1::int8[], t.id)]
      AND (EXTRACT(EPOCH FROM t.expired_at) * 1000000)::int8 = ($2::int8[])[array_position($1::int8[], t.id)]
    """

  /// The row columns after `id` and `title` of a result line that is not a row, as nulls of their types.
  static let noRow =
    "NULL::timestamptz, NULL::float8, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz, "
    + "0, NULL::timestamptz"

  /// Binds the ids, expiries and attempts of `rows` as three arrays ($1, $2, $3).
  static func bindAttempts(_ rows: [ExpiredDeadline], into binds: inout PostgresBindings) {
    binds.append(rows.map(\.id))
    binds.append(rows.map(\.expiredMicroseconds))
    binds.append(rows.map { Int64($0.attempt) })
  }
}
