import GRDB

// The change log: every write to `orders`, by this command, by another program or by hand in `sqlite3`,
// recorded by triggers as the id it touched, numbered by `seq`. A board reads the table once, then
// only the log after the last `seq` it applied, and the rows it names as they are now: its cost per
// change is the rows changed, not the table.
//
// Why `seq` is commit order. SQLite lets one connection write at a time: a write transaction takes
// the database's write lock (RESERVED in rollback-journal mode, the WAL write lock in WAL mode) before
// its first change and holds it until it commits or rolls back. The triggers number entries inside
// the writing transaction (`AUTOINCREMENT`: one more than any number ever used, kept in
// `sqlite_sequence` within the same transaction), so every number a transaction takes is larger than
// every number of every transaction that committed before it, and no other transaction takes a number
// until it has committed. A reader sees a committed state: all of a transaction's entries or none
// (in WAL mode too: a reader's snapshot ends at a commit record). So when a reader sees entry n, it sees
// every entry below n that will ever exist: reading `seq > last` never skips one. A transaction that
// rolls back leaves no entries, and its numbers may be taken again by the next writer, which is fine:
// nobody saw them. (PostgreSQL runs writers concurrently, where such a number is not commit order;
// CountdownPostgres uses a transaction-id watermark instead.)
//
// The log is bounded: every 1,024th entry deletes the entries more than ``changeLogLength`` behind it
// and records how far it deleted in `orders_changes_pruned`. A board whose last `seq` is below that
// mark cannot know what it missed, and reads the whole table again instead.

extension OrderStore {
  /// How many entries the log keeps: a board that falls further behind (a bulk edit of more rows than
  /// this between two of its reads) reads the table again.
  static let changeLogLength = 100_000

  /// The change log's tables and triggers; creating them again changes nothing.
  static let changeLogSchema = """
    CREATE TABLE IF NOT EXISTS orders_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- commit order (see OrderStore+ChangeLog.swift)
      id                                      -- the id of the order written (or deleted)
    );
    CREATE TABLE IF NOT EXISTS orders_changes_pruned (through INTEGER NOT NULL);
    INSERT INTO orders_changes_pruned (through) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM orders_changes_pruned);
    CREATE TRIGGER IF NOT EXISTS orders_logs_insert AFTER INSERT ON orders BEGIN
      INSERT INTO orders_changes (id) VALUES (NEW.id);
    END;
    CREATE TRIGGER IF NOT EXISTS orders_logs_update AFTER UPDATE ON orders BEGIN
      INSERT INTO orders_changes (id) SELECT OLD.id WHERE OLD.id IS NOT NEW.id;
      INSERT INTO orders_changes (id) VALUES (NEW.id);
    END;
    CREATE TRIGGER IF NOT EXISTS orders_logs_delete AFTER DELETE ON orders BEGIN
      INSERT INTO orders_changes (id) VALUES (OLD.id);
    END;
    CREATE TRIGGER IF NOT EXISTS orders_changes_bounded AFTER INSERT ON orders_changes
    WHEN NEW.seq % 1024 = 0 BEGIN
      DELETE FROM orders_changes WHERE seq <= NEW.seq - \(changeLogLength);
      UPDATE orders_changes_pruned SET through = NEW.seq - \(changeLogLength) WHERE through < NEW.seq - \(changeLogLength);
    END;
    """

  /// The log's tables and triggers, by name.
  static let changeLogObjects: Set<String> = [
    "orders_changes", "orders_changes_pruned", "orders_logs_insert", "orders_logs_update", "orders_logs_delete",
    "orders_changes_bounded",
  ]

  /// Adds the change log to a file that lacks it (a file made by an older `countdown`, or by another
  /// program from the table's schema alone); false when the file is read-only and has none.
  static func installChangeLog(in database: DatabaseQueue) throws -> Bool {
    let present = try database.read { db in
      Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')"))
    }
    if changeLogObjects.isSubset(of: present) { return true }
    do {
      try database.write { db in try db.execute(sql: changeLogSchema) }
      return true
    } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
      return false
    }
  }

  /// What the log says happened after an entry.
  enum LogEntries: Equatable {
    /// The ids written or deleted after the entry (each once), the last entry read, and whether a row
    /// without an integer id was written.
    case changes(ids: [Int64], through: Int64, touchesUnreadable: Bool)
    /// Entries after the one asked for were deleted: what changed cannot be known.
    case pruned
  }

  /// The last entry ever written to the log (0 for none yet), even if deleted since: where a reader that
  /// reads the table now starts.
  static func logPosition(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(
      db,
      sql: """
        SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'orders_changes'), 0),
          COALESCE((SELECT MAX(through) FROM orders_changes_pruned), 0))
        """) ?? 0
  }

  /// The entries after `position`.
  static func logEntries(after position: Int64, in db: Database) throws -> LogEntries {
    let pruned = try Int64.fetchOne(db, sql: "SELECT MAX(through) FROM orders_changes_pruned") ?? 0
    guard pruned <= position else { return .pruned }
    var ids: [Int64] = []
    var seen = Set<Int64>()
    var through = position
    var touchesUnreadable = false
    let rows = try Row.fetchCursor(
      db, sql: "SELECT seq, id FROM orders_changes WHERE seq > ? ORDER BY seq", arguments: [position])
    while let row = try rows.next() {
      through = row[0]
      let id: DatabaseValue = row[1]
      guard case .int64(let id) = id.storage else {
        touchesUnreadable = true
        continue
      }
      if seen.insert(id).inserted { ids.append(id) }
    }
    return .changes(ids: ids, through: through, touchesUnreadable: touchesUnreadable)
  }
}
