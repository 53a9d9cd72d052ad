import CountdownKit
import Foundation
import GRDB
import Testing

@testable import CountdownCommandLine

/// The SQLite change log and the follower that reads it: writes by any connection recorded in order,
/// deletes, a log pruned past what a board read, a file made without the log.
@Suite("Board change log on SQLite")
struct BoardChangeLogTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appending(path: "countdown-log-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  var db: String { directory.appending(path: "orders.sqlite").path }

  /// A connection of "another program": plain GRDB, no `OrderStore`, no `countdown`.
  func otherProgram() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    return try DatabaseQueue(path: db, configuration: configuration)
  }

  func entries(after position: Int64) throws -> OrderStore.LogEntries {
    try otherProgram().read { try OrderStore.logEntries(after: position, in: $0) }
  }

  @Test("Inserts, updates and deletes by another connection are logged in commit order")
  func writesByAnotherConnection() throws {
    let store = try OrderStore(path: db)
    #expect(store.hasChangeLog)
    let other = try otherProgram()
    let start = try other.read { try OrderStore.logPosition($0) }
    try other.write { db in
      try db.execute(sql: "INSERT INTO orders (id, title, window_end) VALUES (1, 'a', '2030-01-01 00:00:00.000')")
      try db.execute(sql: "INSERT INTO orders (id, title, window_end) VALUES (2, 'b', '2030-01-01 00:00:00.000')")
    }
    let afterInserts = try other.read { try OrderStore.logPosition($0) }
    try other.write { db in
      try db.execute(sql: "UPDATE orders SET window_end = '2031-01-01 00:00:00.000' WHERE id = 2")
      try db.execute(sql: "DELETE FROM orders WHERE id = 1")
      try db.execute(sql: "UPDATE orders SET id = 7 WHERE id = 2")
    }
    #expect(try entries(after: start) == .changes(ids: [1, 2, 7], through: afterInserts + 4, touchesUnreadable: false))
    #expect(
      try entries(after: afterInserts) == .changes(ids: [2, 1, 7], through: afterInserts + 4, touchesUnreadable: false))
    #expect(
      try entries(after: afterInserts + 4) == .changes(ids: [], through: afterInserts + 4, touchesUnreadable: false))
  }

  @Test("The log keeps its last 100,000 entries and says how far it was pruned")
  func bounded() throws {
    _ = try OrderStore(path: db)
    let other = try otherProgram()
    try other.write { db in
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 110000)
          INSERT INTO orders (title, window_end) SELECT 'bulk', '2030-01-01 00:00:00.000' FROM n
          """)
    }
    let (entries, pruned, last) = try other.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM orders_changes") ?? 0,
        try Int64.fetchOne(db, sql: "SELECT through FROM orders_changes_pruned") ?? 0,
        try OrderStore.logPosition(db)
      )
    }
    #expect(last == 110_000)
    #expect((OrderStore.changeLogLength...(OrderStore.changeLogLength + 1_024)).contains(entries), "\(entries)")
    // The last entry that pruned is the last multiple of 1,024.
    #expect(pruned == Int64(110_000 / 1_024 * 1_024 - OrderStore.changeLogLength))
    #expect(try self.entries(after: pruned - 1) == .pruned)
    guard case .changes(let ids, _, _) = try self.entries(after: pruned) else {
      Issue.record("the entries after the pruned mark are all there")
      return
    }
    #expect(ids.count == 110_000 - Int(pruned))
  }

  @Test("A file made by another program from the table alone gets the log when opened")
  func olderFile() throws {
    let other = try otherProgram()
    try other.write { db in
      try db.execute(sql: OrderStore.schema)
      try db.execute(sql: "INSERT INTO orders (title, window_end) VALUES ('old', '2030-01-01 00:00:00.000')")
    }
    let store = try OrderStore(path: db)
    #expect(store.hasChangeLog)
    let position = try other.read { try OrderStore.logPosition($0) }
    try other.write { try $0.execute(sql: "DELETE FROM orders WHERE id = 1") }
    #expect(try entries(after: position) == .changes(ids: [1], through: position + 1, touchesUnreadable: false))
    // Opening it again changes nothing.
    #expect(try OrderStore(path: db).hasChangeLog)
    #expect(try entries(after: position + 1) == .changes(ids: [], through: position + 1, touchesUnreadable: false))
  }

  @Test("A read-only file without the log cannot get it, and says so instead of failing")
  func readOnlyWithoutLog() throws {
    let other = try otherProgram()
    try other.write { try $0.execute(sql: OrderStore.schema) }
    var configuration = Configuration()
    configuration.readonly = true
    let readOnly = try DatabaseQueue(path: db, configuration: configuration)
    #expect(try !OrderStore.installChangeLog(in: readOnly))
  }

  @Test("Rows are read in place as Order.init(columns:) reads them, stored dates without allocation")
  func decoding() throws {
    let store = try OrderStore(path: db)
    try otherProgram().write { db in
      try db.execute(
        sql: """
          INSERT INTO orders (id, title, window_end, paused_remaining, event_at) VALUES
            (1, 'stored', '2030-01-01 12:34:56.789', NULL, '2030-01-02 00:00:00.000'),
            (2, 'seconds', 1893456000, NULL, NULL),
            (3, 'paused', '2030-01-01 00:00:00.000', 90.5, 'next tuesday'),
            (4, 'null', NULL, NULL, NULL),
            (5, 'iso', '2030-01-01T00:00:00+02:00', NULL, NULL),
            (6, 'thai', '๒๐๓๐-๐๑-๐๑ ๐๐:๐๐:๐๐', NULL, NULL),
            (7, 'far', '9999-12-31 00:00:00.000', NULL, NULL),
            (8, 'blob', X'FF00', 'soon', NULL),
            (9, 'no day', '2030-02-30 00:00:00.000', NULL, NULL),
            (10, 'real', 1893456000.5, '90', NULL)
          """)
    }
    let read = try store.read { db in
      try OrderTimes.fetchAll(db, sql: "SELECT \(OrderTimes.columns) FROM orders ORDER BY id").rows
    }
    let expected = try store.orders(from: .min, limit: 100).map(OrderTimes.init)
    #expect(read == expected)
    #expect(read.count == 10)
    guard case .success(.until(let end)) = read[0].window else {
      Issue.record("the stored date was not read: \(read[0].window)")
      return
    }
    #expect(abs(end.timeIntervalSince1970 - 1_893_501_296.789) < 0.000_1)
  }

  @Test("The stored date form is read field by field exactly as the general reader reads it")
  func storedDates() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("storedDates seed: \(seed)")
    var random = SplitMix64(seed: seed)
    var texts = [
      "2030-01-01 00:00:00.000", "1970-01-01 00:00:00", "2200-01-01 00:00:00.001", "1969-12-31 23:59:59.999",
      "2024-02-29 23:59:59.999", "2023-02-29 00:00:00.000", "2030-13-01 00:00:00.000", "2030-01-01 24:00:00.000",
      "2030-01-01 00:60:00", "2030-01-01T00:00:00.000", "2030-01-01 00:00:00.0000", "2030-01-01 00:00:00.",
      "2030-01-01 00:00:00.12", "+030-01-01 00:00:00.000", "2030-01-01 00:00:0x.000", "",
    ]
    for _ in 0..<2_000 {
      let value = String(
        format: "%04d-%02d-%02d %02d:%02d:%02d.%03d", Int.random(in: 1900...2300, using: &random),
        Int.random(in: 0...13, using: &random), Int.random(in: 0...32, using: &random),
        Int.random(in: 0...24, using: &random), Int.random(in: 0...60, using: &random),
        Int.random(in: 0...60, using: &random), Int.random(in: 0...999, using: &random))
      texts.append(Bool.random(using: &random) ? value : String(value.prefix(19)))
    }
    for text in texts {
      var copy = text
      let fast = copy.withUTF8 { Order.date(utf8: UnsafeRawBufferPointer($0)) }
      #expect(fast == Order.date(.text(text)), "\(text)")
    }
  }
}
