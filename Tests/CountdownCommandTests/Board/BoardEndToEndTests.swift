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

    let added = running.elapsed
    #expect(try await board(["add", "Fitting: Di", "2h", "--event", "1h"]).output == "4")
    try await running.waitForLines(6, timeout: 3)
    // The event shows the time left when the line was drawn: an hour, less the time since `add` began.
    let prefix = "#4 Fitting: Di | ● 2 hours | event in "
    let line = running.lines.last
    #expect(line?.text.hasPrefix(prefix) == true, "\(String(describing: line))")
    if let line, let shown = Self.seconds(line.text.dropFirst(prefix.count)) {
      let earliest = 3_600 - Int((line.time - added).rounded(.up)) - 1
      #expect((earliest...3_600).contains(shown), "\(line.text) drawn \(line.time - added) s after add began")
    } else {
      Issue.record("no event time in \(String(describing: line))")
    }

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
        "#2 Null | ⚠ invalid: no end date and no paused time left",
        "#3 Garbage | ⚠ invalid: window_end is not a date: \"next tuesday\"",
        "#4 Far | ⚠ invalid: the end date is out of range: 9999-12-31T00:00:00Z",
        "#5 Negative | ⚠ invalid: the paused time left is out of range: -5.0 s",
      ])
    for id in ["2", "3", "4"] { #expect(try await board(["pause", id]).status == 1) }
    #expect(try await board(["resume", "5"]).status == 1)
    #expect(try sqlite("SELECT * FROM orders ORDER BY id") == before)
  }

  @Test("--db works before the subcommand and after it; COUNTDOWN_DB names the file")
  func databaseOptionPlacement() async throws {
    #expect(try await CommandRunner.run(["board", "--db", db, "add", "Before", "45m"]).output == "1")
    #expect(try await CommandRunner.run(["board", "add", "After", "2h", "--db", db]).output == "2")
    let other = directory.appending(path: "env.sqlite").path
    let viaEnvironment = try await CommandRunner.run(
      ["board", "add", "Env", "1h"], environment: ["COUNTDOWN_DB": other])
    #expect(viaEnvironment.output == "1")
    #expect(try await CommandRunner.run(["board", "--db", db, "pause", "1"]).status == 0)
    let listing = try await CommandRunner.run(["board", "--db", db, "--once"])
    #expect(listing.output == "#1 Before | ⏸ 45 min (paused)\n#2 After | ● 2 hours")
    let environmentListing = try await CommandRunner.run(["board", "--once"], environment: ["COUNTDOWN_DB": other])
    #expect(environmentListing.output == "#1 Env | ◑ 60 min")
    let overridden = try await CommandRunner.run(["board", "--once", "--db", db], environment: ["COUNTDOWN_DB": other])
    #expect(overridden.output.hasPrefix("#1 Before"), "--db wins over COUNTDOWN_DB")
  }

  @Test("An empty board says how to add an order, live and with --once")
  func emptyBoardHint() async throws {
    let once = try await board(["--once"])
    #expect(once.status == 0 && once.output.isEmpty)
    #expect(once.errors.contains("countdown board add \"Fitting: Ada L.\" 45m --db \(db)"))
    let live = try PseudoTerminal(["board", "--db", db], workingDirectory: directory.appending(path: "pty"))
    #expect(try await live.wait(for: "No orders yet. Add one:"))
    #expect(try await live.wait(for: "--seed 100"))
    live.type("q")
    #expect(try await live.finish().status == 0)
  }

  @Test("A title full of escape sequences is shown as harmless text, live and listed")
  func escapedTitle() async throws {
    let title = "\u{1B}]2;pwned\u{7}\u{1B}[2J\u{1B}[31mRed\u{9B}1m\u{202E}Ada"
    #expect(try await board(["add", title, "2h"]).status == 0)
    let listing = try await board(["--once"])
    #expect(listing.output == "#1 ]2;pwned[2J[31mRed1mAda | ● 2 hours")
    let live = try PseudoTerminal(["board", "--db", db], workingDirectory: directory.appending(path: "pty"))
    #expect(try await live.wait(for: "]2;pwned[2J[31mRed1mAda"))
    live.type("q")
    let result = try await live.finish()
    let screen = String(decoding: result.output, as: UTF8.self)
    #expect(!screen.contains("\u{1B}]2;") && !screen.contains("\u{7}") && !screen.contains("\u{9B}"))
    #expect(!screen.contains("\u{202E}") && !screen.contains("\u{1B}[31mRed"))
  }

  /// The seconds of a digital time ("1:00:00", "59:59"), if `text` is one.
  static func seconds(_ text: Substring) -> Int? {
    let parts = text.split(separator: ":").map { Int($0) }
    guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
    return parts.reduce(0) { $0 * 60 + ($1 ?? 0) }
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
