import CountdownCore
import Foundation
import GRDB

/// The `orders` table in an SQLite file, through GRDB.
///
/// Deadlines are stored as wall-clock dates (as a server would send them), in GRDB's format
/// ("yyyy-MM-dd HH:mm:ss.SSS", UTC); a paused order also stores the seconds it had left. Every edit
/// is one transaction that touches one row, after checking that the row exists.
final class OrderStore: Sendable {
  /// Why the store could not do what was asked; the description says what to do instead.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The database file.
  let path: String
  private let database: DatabaseQueue

  /// Opens (and creates if missing) the database at `path` and makes sure it has the `orders` table.
  ///
  /// - Throws: ``Failure`` if the file is not an SQLite database, cannot be opened, or is an SQLite
  ///   database of something else (tables but no `orders`); such a file is left untouched.
  init(path: String) throws {
    self.path = path
    do {
      var configuration = Configuration()
      configuration.busyMode = .timeout(5)
      database = try DatabaseQueue(path: path, configuration: configuration)
      try database.write { db in
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.contains("orders") {
          let columns = Set(try db.columns(in: "orders").map(\.name))
          let missing = Self.columns.subtracting(columns)
          guard missing.isEmpty else {
            throw Failure(
              description:
                "\(path) has an orders table without the column(s) \(missing.sorted().joined(separator: ", ")).")
          }
        } else if tables.isEmpty {
          try db.execute(sql: Self.schema)
        } else {
          throw Failure(
            description:
              "\(path) is an SQLite database of something else (no orders table); it was left untouched. Pass a new file with --db."
          )
        }
      }
    } catch let failure as Failure {
      throw failure
    } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
      throw Failure(
        description: "\(path) is not an SQLite database (\(error.message ?? "unreadable")); it was left untouched.")
    } catch {
      throw Failure(description: "Cannot open \(path): \(error)")
    }
  }

  static let columns: Set<String> = ["id", "title", "window_end", "paused_remaining", "event_at"]

  static let schema = """
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      window_end TEXT,          -- wall-clock deadline, "yyyy-MM-dd HH:mm:ss.SSS" UTC
      paused_remaining REAL,    -- seconds left while paused, NULL while running
      event_at TEXT             -- optional event date, same format
    )
    """

  /// All orders, by id.
  func orders() throws -> [Order] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT id, title, window_end, paused_remaining, event_at FROM orders ORDER BY id")
        .map(Order.init(row:))
    }
  }

  /// How many orders there are.
  func count() throws -> Int {
    try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM orders") ?? 0 }
  }

  /// How many orders are running with a window that ends after `date`.
  func countRunning(endingAfter date: Date) throws -> Int {
    try database.read { db in
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM orders WHERE paused_remaining IS NULL AND window_end > ?", arguments: [date])
        ?? 0
    }
  }

  /// SQLite's `PRAGMA data_version`: changes when another connection (another process) commits.
  func dataVersion() throws -> Int {
    try database.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
  }

  /// Inserts an order and returns its id.
  @discardableResult
  func add(title: String, windowEnd: Date, eventAt: Date? = nil) throws -> Int64 {
    try database.write { db in
      try db.execute(
        sql: "INSERT INTO orders (title, window_end, event_at) VALUES (?, ?, ?)",
        arguments: [title, windowEnd, eventAt])
      return db.lastInsertedRowID
    }
  }

  /// Inserts many orders in one transaction (for seeding).
  func add(_ orders: [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]) throws {
    try database.write { db in
      let statement = try db.makeStatement(
        sql: "INSERT INTO orders (title, window_end, paused_remaining, event_at) VALUES (?, ?, ?, ?)")
      for order in orders {
        try statement.execute(arguments: [order.title, order.windowEnd, order.pausedRemaining, order.eventAt])
      }
    }
  }

  /// Moves an order's deadline to `end`; a paused order stays paused with the time to `end` left.
  /// Returns whether the order is paused.
  @discardableResult
  func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool {
    try edit(id) { db, order in
      let pausedRemaining: Double? = order.isPaused ? max(end.timeIntervalSince(now), 0) : nil
      try db.execute(
        sql: "UPDATE orders SET window_end = ?, paused_remaining = ? WHERE id = ?",
        arguments: [end, pausedRemaining, id])
      return order.isPaused
    }
  }

  /// Pauses an order: stores the time left at `now`. Returns false if it was already paused.
  @discardableResult
  func pause(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      guard !order.isPaused else { return false }
      guard let end = order.windowEnd else {
        throw Failure(
          description: "Order \(id) has no valid window_end to pause; set one first: countdown board set \(id) 2h")
      }
      try db.execute(
        sql: "UPDATE orders SET paused_remaining = ? WHERE id = ?", arguments: [max(end.timeIntervalSince(now), 0), id])
      return true
    }
  }

  /// Resumes an order: its deadline becomes `now` plus the time it had left. Returns false if it was not paused.
  @discardableResult
  func resume(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      guard order.isPaused else { return false }
      guard let remaining = order.pausedRemaining else {
        throw Failure(
          description:
            "Order \(id) has an invalid paused_remaining; give it a new deadline: countdown board set \(id) 2h")
      }
      try db.execute(
        sql: "UPDATE orders SET window_end = ?, paused_remaining = NULL WHERE id = ?",
        arguments: [now.addingTimeInterval(remaining), id])
      return true
    }
  }

  /// Deletes an order.
  func remove(_ id: Int64) throws {
    try edit(id) { db, _ in try db.execute(sql: "DELETE FROM orders WHERE id = ?", arguments: [id]) }
  }

  /// Deletes every order (before seeding again).
  func removeAll() throws {
    try database.write { db in try db.execute(sql: "DELETE FROM orders") }
  }

  /// The raw columns an edit needs, read without judging them.
  private struct RawOrder {
    var windowEnd: Date?
    var pausedRemaining: Double?
    var isPaused: Bool
  }

  /// Runs `change` in a write transaction on order `id`, after checking that it exists.
  private func edit<T>(_ id: Int64, _ change: (Database, RawOrder) throws -> T) throws -> T {
    try database.write { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT window_end, paused_remaining FROM orders WHERE id = ?", arguments: [id])
      else {
        throw Failure(
          description: "No order \(id) in \(path). List the ids with: countdown board --once --rows 100000 --db \(path)"
        )
      }
      let paused = try? Order.remaining(row["paused_remaining"]).get()
      let raw = RawOrder(
        windowEnd: (try? Order.date(row["window_end"]).get()) ?? nil,
        pausedRemaining: paused.flatMap { $0 }.map {
          $0.timeInterval
        },
        isPaused: !(row["paused_remaining"] as DatabaseValue).isNull)
      return try change(db, raw)
    }
  }
}
