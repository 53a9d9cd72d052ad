import CountdownKit
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import CountdownPostgres

/// A board's follower against a real server: the three columns it reads, straight into board rows, by
/// the binary fast path or the generic decoding; catch-ups read by transaction; a reload gathered and
/// applied in one step.
@Suite("A board's follower on a real table", .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct BoardRowsTests {
  static let end = Date(timeIntervalSince1970: 1_900_000_000)

  /// The board page `sql` reads, each of its rows read by ``BoardRows``.
  static func page(_ sql: String, in database: TestDatabase) async throws -> BoardPage {
    let connection = try await database.location.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    let rows = BoardRows(total: .seconds(60))
    var page = rows.page(capacity: 8)
    for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet) {
      var cells = CellReader(row)
      _ = try rows.read(&cells, into: &page)
    }
    return page
  }

  @Test func readsBoardRowsFromBinaryCellsAndOtherTypesTheGenericWay() async throws {
    let database = try await TestServer.freshDatabase("boardcells")
    // The table's own types: binary cells read straight from their bytes.
    let page = try await Self.page(
      """
      SELECT * FROM (VALUES
        (1::int8, to_timestamp(1900000000), NULL::float8), (2, NULL, 90.25), (3, NULL, NULL),
        (4, 'infinity', NULL), (5, '1960-01-01 00:00:00+00', NULL), (6, now(), 'NaN'), (7, now(), 1e12),
        (8, now(), -1)
      ) AS t(id, ends_at, paused_remaining) ORDER BY id
      """, in: database)
    #expect(
      page.rows == [
        BoardRow(id: 1, deadline: .until(Self.end), total: .seconds(60)),
        BoardRow(id: 2, deadline: .paused(remaining: .milliseconds(90_250)), total: .seconds(60)),
      ])
    #expect(page.invalid == [3, 4, 5, 6, 7, 8], "NULL, infinite, absurd values: invalid, never a crash")
    // Other types (a table whose columns were altered): each such cell decoded the generic way.
    let other = try await Self.page(
      "SELECT 9::int4, '2030-01-01'::date, NULL::float4 UNION ALL SELECT 10::int2, NULL::date, 45.5::float4",
      in: database)
    #expect(
      other.rows == [
        BoardRow(id: 9, deadline: .until(Date(timeIntervalSince1970: 1_893_456_000)), total: .seconds(60)),
        BoardRow(id: 10, deadline: .paused(remaining: .milliseconds(45_500)), total: .seconds(60)),
      ])
    // A cell of a type that cannot be read as the column's is an error, not a row.
    await #expect(throws: (any Error).self) { try await Self.page("SELECT 'eleven'::text, now(), NULL", in: database) }
    await database.drop()
  }

  /// A follower reading `.deadlines` (the `countdown` board's times) delivers each row's deadline and
  /// event, and neither its title nor its expiry columns; the same rows as a follower of whole rows.
  @Test func aFollowerReadingDeadlinesDeliversDeadlinesAndEventsOnly() async throws {
    let database = try await TestServer.freshDatabase("deadlinecols")
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    let event = Date(timeIntervalSince1970: 1_900_000_600)
    let first = try await store.add(title: "Fitting: Ada", endsAt: Self.end, eventAt: event)
    let second = try await store.add(title: "Return: Bo", endsAt: Self.end)
    _ = try await store.pause(second, now: Self.end.addingTimeInterval(-30))
    try await database.execute("UPDATE orders SET event_at = 'infinity', expiry_attempts = 2 WHERE id = \(second)")
    let follower = PostgresDeadlineFollower(location: database.location, table: table)
    let delivered = Mutex<[DeadlineRow]>([])
    let task = Task {
      try await follower.run(reading: .deadlines) { change in
        if case .upserted(let rows) = change { delivered.withLock { $0 += rows } }
      }
    }
    #expect(await eventually { delivered.withLock { $0.count } == 2 })
    let rows = delivered.withLock { $0 }.sorted { $0.id < $1.id }
    #expect(rows.map(\.id) == [first, second])
    #expect(rows.map(\.deadline) == [.success(.until(Self.end)), .success(.paused(remaining: .seconds(30)))])
    #expect(rows.map(\.eventAt) == [event, nil], "an event that is not plausible is none")
    #expect(rows.allSatisfy { $0.title.isEmpty && $0.expiryAttempts == 0 }, "no title, no expiry columns")
    task.cancel()
    await store.close()
    await database.drop()
  }

  @Test func aBoardFollowsATableWhoseColumnsWereAltered() async throws {
    let database = try await TestServer.freshDatabase("boardaltered")
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    let now = Date()
    try await store.add(
      (1...10).map {
        (
          title: "row \($0)", endsAt: now.addingTimeInterval(Double(600 + $0)), pausedRemaining: $0 == 2 ? 90 : nil,
          eventAt: nil
        )
      })
    try await database.execute("ALTER TABLE orders ALTER COLUMN paused_remaining TYPE float4")
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(
      location: database.location, table: table, pageSize: 4, heartbeatInterval: .seconds(1),
      applicationName: "altered-follower")
    let following = Task { try await board.follow(follower) }
    #expect(await eventually { board.count == 10 })
    #expect(board.countdown(for: 2)?.isPaused == true)
    #expect(board.countdown(for: 2)?.remaining(at: engine.now) == .seconds(90))
    try await database.execute("UPDATE orders SET paused_remaining = 30 WHERE id <= 5")
    #expect(await eventually { (1...5).allSatisfy { board.countdown(for: $0)?.isPaused == true } })
    following.cancel()
    _ = try? await following.value
    await store.close()
    await database.drop()
  }

  /// What a board's follower delivered, in order, with the board's count after each.
  final class Record: Sendable {
    private let entries = Mutex<[(event: String, count: Int)]>([])

    func append(_ event: String, _ count: Int) { entries.withLock { $0.append((event, count)) } }

    var events: [String] { entries.withLock { $0.map(\.event) } }

    /// The board's counts while a reload was gathered (after `reloading`, before the next `caughtUp`).
    var countsDuringReloads: [Int] {
      entries.withLock { entries in
        var counts: [Int] = []
        var reloading = false
        for entry in entries {
          if entry.event == "caughtUp" { reloading = false }
          if reloading { counts.append(entry.count) }
          if entry.event == "reloading" { reloading = true }
        }
        return counts
      }
    }
  }

  /// Follows `table` into `board` as `board.follow(_:)` does, recording each event.
  static func follow<Display, C>(
    _ follower: PostgresDeadlineFollower, into board: CountdownBoard<Int64, Display, C>, record: Record
  ) -> Task<Void, any Error> {
    Task {
      var batches = FollowedBatches()
      try await follower.run(BoardRows(total: nil)) { event in
        if let batch = batches.take(event) { board.apply(batch) }
        let name =
          switch event {
          case .upserted: "upserted"
          case .removed: "removed"
          case .reloading: "reloading"
          case .caughtUp: "caughtUp"
          case .interrupted: "interrupted"
          }
        record.append(name, board.count)
      }
    }
  }

  @Test func largeStatementsAreReadByTransactionIntoTheBoard() async throws {
    let database = try await TestServer.freshDatabase("boardtx")
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'row ' || n, now() + interval '1 hour' FROM generate_series(1, 1200) n"
    )
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(
      location: database.location, table: table, pageSize: 500, heartbeatInterval: .seconds(1),
      applicationName: "tx-follower")
    let record = Record()
    let task = Self.follow(follower, into: board, record: record)
    #expect(await eventually(within: .seconds(30)) { board.count == 1_200 })
    // More rows than a statement's notifications carry: the follower reads them by transaction id.
    try await database.execute(
      "UPDATE orders SET paused_remaining = CASE WHEN id % 100 = 0 THEN 1e12 ELSE 30 END")
    #expect(
      await eventually(within: .seconds(30)) { board.count == 1_188 && board.countdown(for: 1)?.isPaused == true })
    #expect(board.countdown(for: 100) == nil, "an absurd time left makes a row invalid: removed")
    try await database.execute("DELETE FROM orders WHERE id > 50")
    #expect(await eventually(within: .seconds(30)) { board.count == 50 })
    #expect(board.countdown(for: 51) == nil)
    #expect(board.countdown(for: 50)?.remaining(at: engine.now) == .seconds(30))
    #expect(!record.events.contains("reloading"), "the horizon was read with the rows: no reload")
    task.cancel()
    _ = try? await task.value
    await store.close()
    await database.drop()
  }

  @Test func aReloadReplacesTheBoardInOneStep() async throws {
    let database = try await TestServer.freshDatabase("boardreload")
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    let now = Date()
    try await store.add(
      (1...30).map {
        (title: "row \($0)", endsAt: now.addingTimeInterval(Double(600 + $0)), pausedRemaining: nil, eventAt: nil)
      })
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(
      location: database.location, table: table, pageSize: 7, heartbeatInterval: .seconds(1),
      applicationName: "reload-follower")
    let record = Record()
    let task = Self.follow(follower, into: board, record: record)
    #expect(await eventually { board.count == 30 })
    // Edits no notification and no log of deleted ids tells of (as if the log had been pruned), then
    // a horizon past every watermark: the follower's next connection can only reload the table.
    try await database.execute(
      """
      DO $$ BEGIN
        ALTER TABLE orders DISABLE TRIGGER USER;
        DELETE FROM orders WHERE id <= 5;
        UPDATE orders SET ends_at = NULL WHERE id = 6;
        UPDATE orders SET paused_remaining = 45 WHERE id = 7;
        ALTER TABLE orders ENABLE TRIGGER USER;
        UPDATE orders_pruned SET through_xid = '9223372036854775807';
      END $$
      """)
    #expect(board.count == 30, "nothing told the follower")
    #expect(try await database.terminate(applicationName: "reload-follower") == 1)
    #expect(await eventually { record.events.filter { $0 == "caughtUp" }.count >= 2 })
    #expect(record.events.contains("reloading"))
    #expect(board.count == 24, "the deleted and the invalid rows are gone")
    #expect((1...6).allSatisfy { board.countdown(for: $0) == nil })
    #expect(board.countdown(for: 7)?.isPaused == true)
    #expect(board.countdown(for: 30) != nil)
    let during = record.countsDuringReloads
    #expect(during.count >= 4, "the reload's 25 rows in pages of 7")
    #expect(during.allSatisfy { $0 == 30 }, "the board kept its rows until the reload caught up: \(during)")
    task.cancel()
    _ = try? await task.value
    await store.close()
    await database.drop()
  }
}
