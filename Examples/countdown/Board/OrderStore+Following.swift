import Foundation
import GRDB

// Following the table: the first load in pages, then the change log (OrderStore+ChangeLog.swift), on a
// read-only connection of its own, so that the board's own edits (on the store's connection) are
// commits by another connection like any other program's, and the view's reads never wait for a page.

extension OrderStore {
  /// How often the follower asks SQLite whether another connection committed (`PRAGMA data_version`:
  /// no page is read when nothing changed).
  static let pollInterval = Duration.milliseconds(200)
  /// Rows per page of the first load: enough that a page's fixed costs vanish (a statement, a hop to
  /// the board), few enough that the pages in flight stay a few megabytes.
  static let pageSize = 10_000
  /// Ids per statement when reading the rows the log names.
  static let idsPerStatement = 500

  func follow(_ deliver: @escaping @Sendable (OrderChange) async -> Void) async throws {
    try await follow(deliver) { try await Task.sleep(for: Self.pollInterval) }
  }

  /// ``follow(_:)``, calling `wait` between two polls (tests poll when they choose to).
  func follow(
    _ deliver: @escaping @Sendable (OrderChange) async -> Void, waitingWith wait: @Sendable () async throws -> Void
  ) async throws {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(5)
    let reader: DatabaseQueue
    do {
      reader = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw Self.failure(error, path: path, doing: "read")
    }
    let (idIsRowID, before) = try await reader.read { db in
      (try Self.idIsRowID(db), try Self.integer(db, "PRAGMA data_version"))
    }
    var position = try await load(reader, idIsRowID: idIsRowID, deliver)
    // Read before the load: a commit during the load is replayed from the log at the first poll.
    var version = before
    var problem: String?
    while !Task.isCancelled {
      do {
        let current = try await reader.read { db in try Self.integer(db, "PRAGMA data_version") }
        if current != version {
          // Taken before the log is read: a commit after this read changes it again.
          version = current
          position = try await readChanges(reader, after: position, idIsRowID: idIsRowID, deliver)
        }
        if problem != nil {
          problem = nil
          await deliver(.problem(nil))
        }
      } catch is CancellationError {
        return
      } catch {
        let message = TerminalText.sanitized(Self.failure(error, path: path, doing: "read").description)
        if message != problem {
          problem = message
          await deliver(.problem(message))
        }
      }
      do {
        try await wait()
      } catch {
        return
      }
    }
  }

  /// The first load: every row in pages, each delivered as it comes while the next one is read. Returns
  /// the log's position taken before the first page, from which the follower replays what changed
  /// while the pages were read (replaying a change a page already saw does no harm: rows are read as
  /// they are now).
  private func load(
    _ reader: DatabaseQueue, idIsRowID: Bool, _ deliver: @escaping @Sendable (OrderChange) async -> Void
  ) async throws -> Int64 {
    let (total, events, position) = try await reader.read { db -> (Int, Int?, Int64?) in
      let counts = try Row.fetchOne(db, sql: idIsRowID ? Self.counts : Self.integerIDCounts)
      return (counts?[0] ?? 0, counts?[1], try Self.position(db))
    }
    await deliver(.loading(total: total, events: events))
    var page = try await reader.read { db in try Self.page(db, after: nil) }
    while let last = page.last?.id {
      guard page.count == Self.pageSize else { break }
      async let next = reader.read { db in try Self.page(db, after: last) }
      await deliver(.changed(page, removed: [], isFirstLoad: true))
      page = try await next
    }
    if !page.isEmpty { await deliver(.changed(page, removed: [], isFirstLoad: true)) }
    let unreadable = idIsRowID ? 0 : try await reader.read { db in try Self.unreadableCount(db) }
    await deliver(.loaded(unreadable: unreadable))
    return position ?? 0
  }

  /// What the log holds after a position.
  private enum LogRead: Sendable {
    /// Rows written and ids deleted, and a new count of rows without an integer id when one of those
    /// was written.
    case batch(OrderChange, unreadable: Int?, through: Int64)
    case nothing(through: Int64)
    /// The log was pruned past the position, or the file has no log.
    case lost
  }

  /// What changed after `position`, delivered; returns the new position. Without a log (a read-only file
  /// that never had one), or when the log was pruned past `position`, the whole table is read again.
  private func readChanges(
    _ reader: DatabaseQueue, after position: Int64, idIsRowID: Bool,
    _ deliver: @escaping @Sendable (OrderChange) async -> Void
  ) async throws -> Int64 {
    let read = try await reader.read { db -> LogRead in
      guard try Self.position(db) != nil,
        case .changes(let ids, let through, let touchesUnreadable) = try Self.logEntries(after: position, in: db)
      else { return .lost }
      guard !ids.isEmpty || touchesUnreadable else { return .nothing(through: through) }
      var rows: [OrderTimes] = []
      for start in stride(from: 0, to: ids.count, by: Self.idsPerStatement) {
        let chunk = Array(ids[start..<min(start + Self.idsPerStatement, ids.count)])
        let marks = repeatElement("?", count: chunk.count).joined(separator: ", ")
        rows += try OrderTimes.fetchAll(
          db, sql: "SELECT \(OrderTimes.columns) FROM orders WHERE id IN (\(marks))",
          arguments: StatementArguments(chunk)
        ).rows
      }
      let found = Set(rows.map(\.id))
      let unreadable = touchesUnreadable ? try Self.unreadableCount(db) : nil
      return .batch(
        .changed(rows, removed: ids.filter { !found.contains($0) }), unreadable: unreadable, through: through)
    }
    switch read {
    case .batch(let change, let unreadable, let through):
      await deliver(change)
      if let unreadable { await deliver(.unreadable(unreadable)) }
      return through
    case .nothing(let through):
      return through
    case .lost:
      return try await reload(reader, idIsRowID: idIsRowID, deliver)
    }
  }

  /// Every row again, in one batch: pages read after taking the log's position, then replayed from it.
  private func reload(
    _ reader: DatabaseQueue, idIsRowID: Bool, _ deliver: @escaping @Sendable (OrderChange) async -> Void
  ) async throws -> Int64 {
    let position = try await reader.read { db in try Self.position(db) }
    var rows: [OrderTimes] = []
    var page = try await reader.read { db in try Self.page(db, after: nil) }
    while let last = page.last?.id {
      rows += page
      guard page.count == Self.pageSize else { break }
      page = try await reader.read { db in try Self.page(db, after: last) }
    }
    let unreadable = idIsRowID ? 0 : try await reader.read { db in try Self.unreadableCount(db) }
    await deliver(.reloaded(rows))
    await deliver(.unreadable(unreadable))
    guard let position else { return 0 }
    return try await readChanges(reader, after: position, idIsRowID: idIsRowID, deliver)
  }

  /// A page of ``pageSize`` rows after id `last` (from the first row when nil), in id order.
  static func page(_ db: Database, after last: Int64?) throws -> [OrderTimes] {
    let base = "SELECT \(OrderTimes.columns) FROM orders WHERE typeof(id) = 'integer'"
    if let last {
      return try OrderTimes.fetchAll(
        db, sql: base + " AND id > ? ORDER BY id LIMIT ?", arguments: [last, pageSize]
      ).rows
    }
    return try OrderTimes.fetchAll(db, sql: base + " ORDER BY id LIMIT ?", arguments: [pageSize]).rows
  }

  /// The log's position, or nil when the file has no log.
  static func position(_ db: Database) throws -> Int64? {
    let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")
    guard changeLogObjects.isSubset(of: Set(names)) else { return nil }
    return try logPosition(db)
  }

  /// Whether `id` is the table's row id (an `INTEGER PRIMARY KEY`): then every row has an integer id.
  static func idIsRowID(_ db: Database) throws -> Bool {
    try db.columns(in: "orders").contains {
      $0.name == "id" && $0.primaryKeyIndex > 0 && $0.type.uppercased() == "INTEGER"
    }
  }

  /// How many rows there are, and how many with an event.
  static let counts = "SELECT COUNT(*), COUNT(event_at) FROM orders"
  static let integerIDCounts = "SELECT COUNT(*), COUNT(event_at) FROM orders WHERE typeof(id) = 'integer'"

  /// Rows without an integer id.
  static func unreadableCount(_ db: Database) throws -> Int {
    try integer(db, "SELECT COUNT(*) FROM orders WHERE typeof(id) != 'integer'")
  }
}
