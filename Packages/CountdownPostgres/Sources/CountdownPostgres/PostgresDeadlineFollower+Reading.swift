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
  /// when `announceReload`: the consumer may hold rows from before), in one repeatable-read snapshot.
  func load(
    on connection: PostgresConnection, after watermark: UInt64?, announceReload: Bool, heartbeat: Heartbeat,
    _ emit: (DeadlineChange) async -> Void
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
        count = try await catchUp(on: connection, since: watermark, heartbeat: heartbeat, emit)
      } else {
        if announceReload || fromTheFuture { await emit(.reloading) }
        count = try await loadPages(on: connection, heartbeat: heartbeat, emit)
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
  private func loadPages(
    on connection: PostgresConnection, heartbeat: Heartbeat, _ emit: (DeadlineChange) async -> Void
  ) async throws -> Int {
    var count = 0
    var page = try await readPage(after: .min, on: connection, heartbeat: heartbeat)
    while let last = page.last {
      count += page.count
      guard page.count == pageSize else {
        await emit(.upserted(page))
        return count
      }
      async let next = readPage(after: last.id, on: connection, heartbeat: heartbeat)
      await emit(.upserted(page))
      page = try await next
    }
    return count
  }

  /// The ``pageSize`` rows after id `last`, in id order.
  private func readPage(after last: Int64, on connection: PostgresConnection, heartbeat: Heartbeat) async throws
    -> [DeadlineRow]
  {
    var binds = PostgresBindings()
    binds.append(last)
    binds.append(pageSize)
    let query = PostgresQuery(
      unsafeSQL: "SELECT \(table.selectList) FROM \(table.table) WHERE id > $1 ORDER BY id LIMIT $2", binds: binds)
    var page: [DeadlineRow] = []
    page.reserveCapacity(pageSize)
    for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
      page.append(try DeadlineRow(row))
      if page.count % 1_000 == 0 { heartbeat.heard() }
    }
    heartbeat.heard()
    return page
  }

  /// The rows written and the ids deleted by transactions at or above `watermark`.
  private func catchUp(
    on connection: PostgresConnection, since watermark: UInt64, heartbeat: Heartbeat,
    _ emit: (DeadlineChange) async -> Void
  ) async throws -> Int {
    var binds = PostgresBindings()
    binds.append(String(watermark))
    let changes = try await readChanges(
      on: connection, where: "changed_xid >= $1::xid8", removedWhere: "removed_xid >= $1::xid8", binds: binds,
      heartbeat: heartbeat, emit)
    if !changes.removed.isEmpty { await emit(.removed(changes.removed)) }
    return changes.rows
  }

  /// The rows written and the ids deleted by `transactions`, as they are now.
  ///
  /// - Returns: False when the log of deleted ids may have lost some of theirs (pruned past the oldest
  ///   of them): the caller reloads the table.
  func read(
    _ transactions: [UInt64], on connection: PostgresConnection, heartbeat: Heartbeat,
    _ emit: (DeadlineChange) async -> Void
  ) async throws -> Bool {
    var binds = PostgresBindings()
    binds.append(transactions.map { String($0) })
    let changes = try await readChanges(
      on: connection, where: "changed_xid = ANY($1::text[]::xid8[])",
      removedWhere: "removed_xid = ANY($1::text[]::xid8[])", binds: binds, heartbeat: heartbeat, emit)
    if !changes.removed.isEmpty { await emit(.removed(changes.removed)) }
    guard let horizon = changes.horizon, let oldest = transactions.min() else { return false }
    return oldest > horizon
  }

  /// Rows matching `condition` and deleted ids matching `removedCondition` (and not back in the table),
  /// with how far the log of deleted ids was pruned, in one statement; rows are delivered in chunks of
  /// ``pageSize``, the deleted ids returned.
  private func readChanges(
    on connection: PostgresConnection, where condition: String, removedWhere removedCondition: String,
    binds: PostgresBindings, heartbeat: Heartbeat, _ emit: (DeadlineChange) async -> Void
  ) async throws -> (rows: Int, removed: [Int64], horizon: UInt64?) {
    let nulls =
      "NULL::timestamptz, NULL::float8, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz, "
      + "NULL::timestamptz, 0, NULL::timestamptz"
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT 0, \(table.selectList) FROM \(table.table) WHERE \(condition)
        UNION ALL
        SELECT 1, r.id, '', \(nulls)
        FROM \(table.removed) r
        WHERE \(removedCondition) AND NOT EXISTS (SELECT 1 FROM \(table.table) t WHERE t.id = r.id)
        UNION ALL
        SELECT 2, 0, through_xid::text, \(nulls) FROM \(table.pruned)
        """, binds: binds)
    var rows: [DeadlineRow] = []
    var removed: [Int64] = []
    var horizon: UInt64?
    var count = 0
    let columns = (Int32, Int64, String, Date?, Double?, Date?, Date?, Date?, Date?, Int, Date?).self
    for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
      var cells = CellReader(row)
      let (kind, values) =
        if let kind = try? cells.int32(), let values = try? cells.deadlineColumns() {
          (kind, values)
        } else {
          try {
            let (kind, id, title, end, paused, event, expired, lease, followedUp, attempts, discarded) = try row.decode(
              columns)
            return (kind, (id, title, end, paused, event, expired, lease, followedUp, attempts, discarded))
          }()
        }
      let (id, title) = (values.0, values.1)
      switch kind {
      case 0:
        rows.append(DeadlineRow(columns: values))
        count += 1
        if rows.count % 1_000 == 0 { heartbeat.heard() }
        if rows.count == pageSize {
          await emit(.upserted(rows))
          rows.removeAll(keepingCapacity: true)
        }
      case 1:
        removed.append(id)
      default:
        horizon = Self.transactionID(Substring(title))
      }
    }
    heartbeat.heard()
    if !rows.isEmpty { await emit(.upserted(rows)) }
    return (count, removed, horizon)
  }
}
