import Foundation
import GRDB

/// The `orders` table in an SQLite file, through GRDB.
///
/// Deadlines are stored as wall-clock dates (as a server would send them), in GRDB's format
/// ("yyyy-MM-dd HH:mm:ss.SSS", UTC); a paused order also stores the seconds it had left. Every edit
/// is one transaction that touches one row, after checking that the row exists. Rows written by
/// other programs are read defensively (``Order/init(columns:)``): a bad value makes a row invalid,
/// never the board crash. Every write to the table, by any program, is recorded in a change log that
/// boards follow (`OrderStore+ChangeLog.swift`); opening a file adds the log if it has none.
final class OrderStore: Sendable {
  /// Why the store could not do what was asked; the description says what to do instead.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The database file.
  let path: String
  let database: DatabaseQueue
  /// Whether the file has the change log (a read-only file that never had it cannot get it): without
  /// it, a board reads the whole table again after each commit by another process.
  let hasChangeLog: Bool

  /// Opens (and creates if missing) the database at `path` and makes sure it has the `orders` table.
  ///
  /// A read-only file can be opened and read; edits then fail with a message that says so.
  ///
  /// - Parameter busyTimeout: How long a statement waits for another process's lock before it fails.
  /// - Throws: ``Failure`` if the file is not an SQLite database, cannot be opened, or is an SQLite
  ///   database of something else (tables but no `orders`); such a file is left untouched.
  init(path: String, busyTimeout: TimeInterval = 5) throws {
    self.path = path
    do {
      var configuration = Configuration()
      configuration.busyMode = .timeout(busyTimeout)
      database = try DatabaseQueue(path: path, configuration: configuration)
      let tables = try database.read { db in
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
      }
      if tables.contains("orders") {
        let columns = try database.read { db in Set(try db.columns(in: "orders").map(\.name)) }
        let missing = Self.columns.subtracting(columns)
        guard missing.isEmpty else {
          throw Failure(
            description:
              "\(path) has an orders table without the column(s) \(missing.sorted().joined(separator: ", ")).")
        }
      } else if tables.isEmpty {
        try database.write { db in
          // Another process may have created it since the read above.
          try db.execute(sql: Self.schema.replacingOccurrences(of: "CREATE TABLE", with: "CREATE TABLE IF NOT EXISTS"))
          try db.execute(sql: Self.changeLogSchema)
        }
      } else {
        throw Failure(
          description:
            "\(path) is an SQLite database of something else (no orders table); it was left untouched. Pass a new file with --db."
        )
      }
      hasChangeLog = try Self.installChangeLog(in: database)
    } catch {
      throw Self.failure(error, path: path, doing: "open")
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

  /// How many orders there are.
  func count() throws -> Int {
    try read { db in try Self.integer(db, "SELECT COUNT(*) FROM orders") }
  }

  /// How many orders are running with a window that ends after `date`.
  func countRunning(endingAfter date: Date) throws -> Int {
    try read { db in
      try Self.integer(
        db, "SELECT COUNT(*) FROM orders WHERE paused_remaining IS NULL AND window_end > ?", arguments: [date])
    }
  }

  /// An integer that SQLite itself computes (a count, a pragma).
  static func integer(_ db: Database, _ sql: String, arguments: StatementArguments = []) throws -> Int {
    guard let value = try Int.fetchOne(db, sql: sql, arguments: arguments) else {
      throw Failure(description: "SQLite returned no value for \(sql)")
    }
    return value
  }

  /// Runs `work` in a read transaction, with failures explained.
  func read<T>(_ work: (Database) throws -> T) throws -> T {
    do {
      return try database.read(work)
    } catch {
      throw Self.failure(error, path: path, doing: "read")
    }
  }

  /// Runs `work` in a write transaction, with failures explained.
  func write<T>(_ work: (Database) throws -> T) throws -> T {
    do {
      return try database.write(work)
    } catch {
      throw Self.failure(error, path: path, doing: "change")
    }
  }
}
