import Foundation
import PostgresNIO

extension PostgresDeadlines {
  /// Writes many rows in one statement: each row's `title`, `endsAt`, `pausedRemaining` and `eventAt`,
  /// inserted under its `id` or replacing the row that has it (the expiry columns are the workers': a
  /// row whose deadline moves expires again). For a load or a sync from another system; a given id does
  /// not advance the table's id sequence, so do not mix given ids with ``add(title:endsAt:eventAt:)``.
  ///
  /// The columns travel as binary array parameters, and the statement stamps `changed_xid` itself (the
  /// table's row trigger is not called per row); followers read the rows by the transaction's id.
  /// When an id comes twice, its last row wins.
  public func upsert(_ rows: [DeadlineRow]) async throws(PostgresDeadlineError) {
    guard !rows.isEmpty else { return }
    var latest: [Int64: Int] = [:]
    latest.reserveCapacity(rows.count)
    for (index, row) in rows.enumerated() { latest[row.id] = index }
    let unique = latest.count == rows.count ? rows : latest.values.sorted().map { rows[$0] }
    var binds = PostgresBindings()
    binds.append(unique.map(\.id))
    binds.append(unique.map(\.title))
    binds.append(NullableArray(elements: unique.map(\.endsAt)))
    binds.append(NullableArray(elements: unique.map(\.pausedRemaining)))
    binds.append(NullableArray(elements: unique.map(\.eventAt)))
    let moved = "t.ends_at IS DISTINCT FROM EXCLUDED.ends_at"
    try await execute(
      """
      INSERT INTO \(table.table) AS t (id, title, ends_at, paused_remaining, event_at, changed_xid)
      SELECT id, title, ends_at, paused, event_at, pg_current_xact_id()
      FROM unnest($1::int8[], $2::text[], $3::timestamptz[], $4::float8[], $5::timestamptz[])
        AS u(id, title, ends_at, paused, event_at)
      ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, ends_at = EXCLUDED.ends_at,
        paused_remaining = EXCLUDED.paused_remaining, event_at = EXCLUDED.event_at, changed_xid = EXCLUDED.changed_xid,
        expired_at = CASE WHEN \(moved) THEN NULL ELSE t.expired_at END,
        lease_until = CASE WHEN \(moved) THEN NULL ELSE t.lease_until END,
        followed_up_at = CASE WHEN \(moved) THEN NULL ELSE t.followed_up_at END,
        discarded_at = CASE WHEN \(moved) THEN NULL ELSE t.discarded_at END,
        expiry_attempts = CASE WHEN \(moved) THEN 0 ELSE t.expiry_attempts END,
        attempt_base = CASE WHEN \(moved) THEN 0 ELSE t.attempt_base END
      """, binds, doing: "writing \(unique.count) rows")
  }

  /// Deletes the rows with these ids in one statement; returns how many there were.
  @discardableResult
  public func remove(_ ids: [Int64]) async throws(PostgresDeadlineError) -> Int {
    guard !ids.isEmpty else { return 0 }
    var binds = PostgresBindings()
    binds.append(ids)
    return try await scalar(
      "WITH gone AS (DELETE FROM \(table.table) WHERE id = ANY($1::int8[]) RETURNING 1) SELECT count(*) FROM gone",
      binds)
  }
}
