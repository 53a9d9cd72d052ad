import Foundation
import PostgresNIO

extension PostgresDeadlineFollower {
  /// The first load (every row, in pages by id) when `watermark` is nil, else a catch-up (the rows and
  /// deletions of transactions at or above it), in one repeatable-read snapshot.
  ///
  /// - Returns: The snapshot's `xmin`, the next watermark, and how many rows were read.
  func load(
    on connection: PostgresConnection, after watermark: UInt64?, _ deliver: (DeadlineChange) async -> Void
  ) async throws -> (watermark: UInt64, rows: Int) {
    try await connection.queryUnlessClosed("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
    do {
      // The first statement takes the transaction's snapshot.
      var xmin: UInt64?
      for try await text in try await connection.queryUnlessClosed(
        "SELECT pg_snapshot_xmin(pg_current_snapshot())::text", logger: logger
      ).decode(String.self) {
        xmin = Self.transactionID(Substring(text))
      }
      guard let xmin else {
        throw PostgresDeadlineError(.server, "\(location) did not report its snapshot's xmin.")
      }
      let count =
        if let watermark {
          try await catchUp(on: connection, since: watermark, deliver)
        } else {
          try await loadPages(on: connection, deliver)
        }
      try await connection.queryUnlessClosed("COMMIT", logger: logger)
      return (xmin, count)
    } catch {
      _ = try? await connection.queryUnlessClosed("ROLLBACK", logger: logger)
      throw error
    }
  }

  /// Every row, a page of ``pageSize`` at a time in id order (keyset pagination), each page delivered
  /// as it arrives so that a board fills while the rest loads; the next page is read while the
  /// consumer applies the current one.
  private func loadPages(on connection: PostgresConnection, _ deliver: (DeadlineChange) async -> Void)
    async throws -> Int
  {
    var count = 0
    var page = try await readPage(after: .min, on: connection)
    while let last = page.last {
      count += page.count
      guard page.count == pageSize else {
        await deliver(.upserted(page))
        return count
      }
      async let next = readPage(after: last.id, on: connection)
      await deliver(.upserted(page))
      page = try await next
    }
    return count
  }

  /// The ``pageSize`` rows after id `last`, in id order.
  private func readPage(after last: Int64, on connection: PostgresConnection) async throws -> [DeadlineRow] {
    var binds = PostgresBindings()
    binds.append(last)
    binds.append(pageSize)
    let query = PostgresQuery(
      unsafeSQL: "SELECT \(table.selectList) FROM \(table.table) WHERE id > $1 ORDER BY id LIMIT $2", binds: binds)
    var page: [DeadlineRow] = []
    page.reserveCapacity(pageSize)
    for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
      page.append(try DeadlineRow(row))
    }
    return page
  }

  /// The rows written and the ids deleted by transactions at or above `watermark`.
  private func catchUp(
    on connection: PostgresConnection, since watermark: UInt64, _ deliver: (DeadlineChange) async -> Void
  ) async throws -> Int {
    var binds = PostgresBindings()
    binds.append(String(watermark))
    let (rows, removed) = try await readChanges(
      on: connection, where: "changed_xid >= $1::xid8", removedWhere: "removed_xid >= $1::xid8", binds: binds,
      deliver)
    if !removed.isEmpty { await deliver(.removed(removed)) }
    return rows
  }

  /// The rows written and the ids deleted by `transactions` (ids as text), as they are now.
  func read(
    _ transactions: [String], on connection: PostgresConnection, _ deliver: (DeadlineChange) async -> Void
  ) async throws {
    var binds = PostgresBindings()
    binds.append(transactions)
    let (_, removed) = try await readChanges(
      on: connection, where: "changed_xid = ANY($1::text[]::xid8[])",
      removedWhere: "removed_xid = ANY($1::text[]::xid8[])", binds: binds, deliver)
    if !removed.isEmpty { await deliver(.removed(removed)) }
  }

  /// Rows matching `condition` and deleted ids matching `removedCondition` (and not back in the table),
  /// in one statement; rows are delivered in chunks of ``pageSize``, the deleted ids returned.
  private func readChanges(
    on connection: PostgresConnection, where condition: String, removedWhere removedCondition: String,
    binds: PostgresBindings, _ deliver: (DeadlineChange) async -> Void
  ) async throws -> (rows: Int, removed: [Int64]) {
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT false, \(table.selectList) FROM \(table.table) WHERE \(condition)
        UNION ALL
        SELECT true, r.id, '', NULL::timestamptz, NULL::float8, NULL::timestamptz, NULL::timestamptz,
          NULL::timestamptz, NULL::timestamptz, 0
        FROM \(table.removed) r
        WHERE \(removedCondition) AND NOT EXISTS (SELECT 1 FROM \(table.table) t WHERE t.id = r.id)
        """, binds: binds)
    var rows: [DeadlineRow] = []
    var removed: [Int64] = []
    var count = 0
    let columns = (Bool, Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int).self
    for try await (gone, id, title, end, paused, event, expired, lease, followedUp, attempts)
      in try await connection
      .queryUnlessClosed(query, logger: logger).decode(columns)
    {
      if gone {
        removed.append(id)
        continue
      }
      rows.append(DeadlineRow(columns: (id, title, end, paused, event, expired, lease, followedUp, attempts)))
      count += 1
      if rows.count == pageSize {
        await deliver(.upserted(rows))
        rows.removeAll(keepingCapacity: true)
      }
    }
    if !rows.isEmpty { await deliver(.upserted(rows)) }
    return (count, removed)
  }
}
