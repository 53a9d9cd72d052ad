import Foundation
import PostgresNIO

extension PostgresDeadlineFollower {
  /// What a load or catch-up leaves behind.
  struct Loaded {
    /// The snapshot's `xmin`: the next watermark.
    var watermark: UInt64
    /// How many rows were read.
    var rows: Int
    /// The snapshot everything was read in.
    var snapshot: TransactionSnapshot
  }

  /// A catch-up (the rows and deletions of transactions at or above `watermark`) when the log of
  /// deleted ids still holds them, else the whole table in pages (after ``DeadlineChange/reloading``
  /// when `announceReload`: the consumer may hold rows from before), in one repeatable-read snapshot;
  /// the rows read by `rows`.
  func load<Rows: FollowedRows>(
    _ rows: Rows, on connection: PostgresConnection, after watermark: UInt64?, announceReload: Bool,
    heartbeat: Heartbeat, _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> Loaded {
    try await connection.queryUnlessClosed("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
    do {
      // The first statement takes the transaction's snapshot.
      var texts: (String, String?)?
      for try await row in try await connection.queryUnlessClosed(
        PostgresQuery(
          unsafeSQL: "SELECT pg_current_snapshot()::text, (SELECT through_xid::text FROM \(table.pruned))"),
        logger: logger
      ).decode((String, String?).self) {
        texts = row
      }
      heartbeat.heard()
      guard let texts, let snapshot = TransactionSnapshot(texts.0) else {
        throw PostgresDeadlineError(.server, "\(location) did not report its snapshot.")
      }
      let horizon = texts.1.flatMap { Self.transactionID(Substring($0)) }
      // A watermark above every transaction the server has begun comes from before a point-in-time
      // restore or a failover (or from someone else): a catch-up from it would read nothing.
      let fromTheFuture = watermark.map { $0 > snapshot.xmax } ?? false
      if fromTheFuture {
        logger.warning(
          "The watermark of \(table.qualifiedName)'s follower is ahead of the server's transactions: reloading")
      }
      let count: Int
      if let watermark, !fromTheFuture, let horizon, watermark > horizon {
        count = try await catchUp(rows, on: connection, since: watermark, heartbeat: heartbeat, emit)
      } else {
        if announceReload || fromTheFuture { await emit(.reloading) }
        count = try await loadPages(rows, on: connection, heartbeat: heartbeat, emit)
      }
      try await connection.queryUnlessClosed("COMMIT", logger: logger)
      return Loaded(watermark: snapshot.xmin, rows: count, snapshot: snapshot)
    } catch {
      _ = try? await connection.queryUnlessClosed("ROLLBACK", logger: logger)
      throw error
    }
  }

  /// Every row, a page of ``pageSize`` at a time in id order (keyset pagination), each page delivered
  /// as it arrives so that a board fills while the rest loads; the next page is read while the
  /// consumer applies the current one.
  private func loadPages<Rows: FollowedRows>(
    _ rows: Rows, on connection: PostgresConnection, heartbeat: Heartbeat,
    _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> Int {
    var count = 0
    var page = try await readPage(rows, after: .min, on: connection, heartbeat: heartbeat)
    while let last = page.last {
      count += page.count
      guard page.count == pageSize else {
        await emit(.upserted(page.rows))
        return count
      }
      async let next = readPage(rows, after: last, on: connection, heartbeat: heartbeat)
      await emit(.upserted(page.rows))
      page = try await next
    }
    return count
  }

  /// The ``pageSize`` rows after id `last`, in id order, with their number and the last one's id.
  private func readPage<Rows: FollowedRows>(
    _ rows: Rows, after last: Int64, on connection: PostgresConnection, heartbeat: Heartbeat
  ) async throws -> (rows: Rows.Page, count: Int, last: Int64?) {
    var binds = PostgresBindings()
    binds.append(last)
    binds.append(pageSize)
    let query = PostgresQuery(
      unsafeSQL: "SELECT \(Rows.selectList) FROM \(table.table) WHERE id > $1 ORDER BY id LIMIT $2", binds: binds)
    var page = rows.page(capacity: pageSize)
    var count = 0
    var lastID: Int64?
    for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
      var cells = CellReader(row)
      lastID = try rows.read(&cells, into: &page)
      count += 1
      if count % 1_000 == 0 { heartbeat.heard() }
    }
    heartbeat.heard()
    return (page, count, lastID)
  }

  /// The rows written and the ids deleted by transactions at or above `watermark`.
  private func catchUp<Rows: FollowedRows>(
    _ rows: Rows, on connection: PostgresConnection, since watermark: UInt64, heartbeat: Heartbeat,
    _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> Int {
    var binds = PostgresBindings()
    binds.append(String(watermark))
    let changes = try await readChanges(
      rows, on: connection, where: "changed_xid >= $1::xid8", removedWhere: "removed_xid >= $1::xid8", binds: binds,
      heartbeat: heartbeat, emit)
    if !changes.removed.isEmpty { await emit(.removed(changes.removed)) }
    return changes.rows
  }

  /// The rows written and the ids deleted by `transactions`, as they are now.
  ///
  /// - Returns: False when the log of deleted ids may have lost some of theirs (pruned past the oldest
  ///   of them): the caller reloads the table.
  func read<Rows: FollowedRows>(
    _ transactions: [UInt64], as rows: Rows, on connection: PostgresConnection, heartbeat: Heartbeat,
    _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> Bool {
    var binds = PostgresBindings()
    binds.append(transactions.map { String($0) })
    let changes = try await readChanges(
      rows, on: connection, where: "changed_xid = ANY($1::text[]::xid8[])",
      removedWhere: "removed_xid = ANY($1::text[]::xid8[])", binds: binds, heartbeat: heartbeat, emit)
    if !changes.removed.isEmpty { await emit(.removed(changes.removed)) }
    guard let horizon = changes.horizon, let oldest = transactions.min() else { return false }
    return oldest > horizon
  }

  /// Rows matching `condition` and deleted ids matching `removedCondition` (and not back in the table),
  /// with how far the log of deleted ids was pruned, in one statement; rows are delivered in chunks of
  /// ``pageSize``, the deleted ids returned.
  private func readChanges<Rows: FollowedRows>(
    _ rows: Rows, on connection: PostgresConnection, where condition: String, removedWhere removedCondition: String,
    binds: PostgresBindings, heartbeat: Heartbeat, _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> (rows: Int, removed: [Int64], horizon: UInt64?) {
    // Each row: its kind (0 a row, 1 a deleted id, 2 the horizon), the rows' columns, the horizon.
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT 0, \(Rows.selectList), NULL::text FROM \(table.table) WHERE \(condition)
        UNION ALL
        SELECT 1, r.id, \(Rows.nulls), NULL::text
        FROM \(table.removed) r
        WHERE \(removedCondition) AND NOT EXISTS (SELECT 1 FROM \(table.table) t WHERE t.id = r.id)
        UNION ALL
        SELECT 2, 0, \(Rows.nulls), through_xid::text FROM \(table.pruned)
        """, binds: binds)
    var page = rows.page(capacity: 0)
    var removed: [Int64] = []
    var horizon: UInt64?
    var count = 0
    for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
      var cells = CellReader(row)
      switch try cells.int32() {
      case 0:
        _ = try rows.read(&cells, into: &page)
        count += 1
        if count % 1_000 == 0 { heartbeat.heard() }
        if rows.count(of: page) == pageSize {
          await emit(.upserted(page))
          page = rows.page(capacity: 0)
        }
      case 1:
        removed.append(try cells.int64())
      default:
        cells.skip(Rows.columns.count)
        horizon = try cells.optionalText().flatMap { Self.transactionID(Substring($0)) }
      }
    }
    heartbeat.heard()
    if rows.count(of: page) > 0 { await emit(.upserted(page)) }
    return (count, removed, horizon)
  }
}
