import Foundation
import GRDB
import Testing

/// `countdown board` on a fresh SQLite file in a temporary directory.
@Suite("countdown board end to end")
struct BoardEndToEndTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appending(path: "countdown-board-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  var db: String { directory.appending(path: "orders.sqlite").path }

  /// Runs `countdown board <arguments> --db <db>` to the end.
  func board(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
    try await CommandRunner.run(["board"] + arguments + ["--db", db])
  }

  @Test("An edit from a second process shows up in the running board's --plain output within a second")
  func editFromAnotherProcess() async throws {
    for (title, time) in [("Fitting: Ada", "3h"), ("Pickup: Bo", "45m"), ("Return: Cy", "5h")] {
      #expect(try await board(["add", title, time]).status == 0)
    }
    let running = try CommandRunner(["board", "--plain", "--rows", "5", "--db", db])
    try await running.waitForLines(3)
    #expect(running.texts == ["#1 Fitting: Ada | ● 3 hours", "#2 Pickup: Bo | ◑ 45 min", "#3 Return: Cy | ● 5 hours"])

    let set = try await board(["set", "2", "90m"])
    #expect(set.status == 0, "stderr: \(set.errors)")
    let edited = running.elapsed
    try await running.waitForLines(4, timeout: 3)
    #expect(running.texts.last == "#2 Pickup: Bo | ◕ 1.5 hours")
    if running.lines.count >= 4 { #expect(running.lines[3].time - edited < 1.0, "seen within a second") }

    #expect(try await board(["pause", "3"]).status == 0)
    try await running.waitForLines(5, timeout: 3)
    #expect(running.texts.last == "#3 Return: Cy | ⏸ 5 hours (paused)")

    #expect(try await board(["add", "Fitting: Di", "2h", "--event", "1h"]).output == "4")
    try await running.waitForLines(6, timeout: 3)
    #expect(running.texts.last == "#4 Fitting: Di | ● 2 hours | event in 1:00:00")

    running.send(SIGTERM)
    #expect(try await running.waitForExit() == 143)
  }

  @Test("Bad input: unknown ids, a file that is not SQLite, bad times; rows are never changed")
  func badInput() async throws {
    #expect(try await board(["add", "Fitting: Ada", "2h"]).status == 0)
    let unknown = try await board(["pause", "42"])
    #expect(unknown.status == 1)
    #expect(unknown.errors.contains("No order 42"))
    let badTime = try await board(["set", "1", "soon"])
    #expect(badTime.status == 64)
    #expect(badTime.errors.contains("25m"))

    let garbage = directory.appending(path: "notes.txt")
    let content = Data("these are not the orders you are looking for\n".utf8)
    try content.write(to: garbage)
    let notSQLite = try await CommandRunner.run(["board", "--once", "--db", garbage.path])
    #expect(notSQLite.status == 1)
    #expect(notSQLite.errors.contains("not an SQLite database"))
    #expect(try Data(contentsOf: garbage) == content, "left untouched")
  }

  @Test("Rows with NULL, unparsable or absurd dates are listed as invalid and left alone")
  func invalidRows() async throws {
    #expect(try await board(["add", "Fitting: Ada", "2h"]).status == 0)
    try sqlite(
      """
      INSERT INTO orders (id, title, window_end) VALUES (2, 'Null', NULL);
      INSERT INTO orders (id, title, window_end) VALUES (3, 'Garbage', 'next tuesday');
      INSERT INTO orders (id, title, window_end) VALUES (4, 'Far', '9999-12-31 00:00:00');
      INSERT INTO orders (id, title, window_end, paused_remaining) VALUES (5, 'Negative', '2026-01-01 00:00:00', -5);
      """)
    let before = try sqlite("SELECT * FROM orders ORDER BY id")
    #expect(before.count == 5)
    let listing = try await board(["--once"])
    #expect(listing.status == 0)
    #expect(
      listing.output.components(separatedBy: "\n") == [
        "#1 Fitting: Ada | ● 2 hours",
        "#2 Null | ⚠ invalid: window_end is NULL",
        "#3 Garbage | ⚠ invalid: window_end is not a date: \"next tuesday\"",
        "#4 Far | ⚠ invalid: window_end is out of range: \"9999-12-31 00:00:00\"",
        "#5 Negative | ⚠ invalid: paused_remaining is out of range: -5.0",
      ])
    for id in ["2", "3", "4"] { #expect(try await board(["pause", id]).status == 1) }
    #expect(try await board(["resume", "5"]).status == 1)
    #expect(try sqlite("SELECT * FROM orders ORDER BY id") == before)
  }

  /// Runs SQL on the test database from this process (the "other process" a user would use).
  @discardableResult
  func sqlite(_ sql: String) throws -> [[String]] {
    let queue = try DatabaseQueue(path: db)
    return try queue.write { database in
      try database.execute(sql: sql)
      guard sql.hasPrefix("SELECT") else { return [] }
      return try Row.fetchAll(database, sql: sql).map { row in row.databaseValues.map(\.description) }
    }
  }
}
