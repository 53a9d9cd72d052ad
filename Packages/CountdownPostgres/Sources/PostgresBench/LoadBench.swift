import ArgumentParser
import CountdownKit
import CountdownPostgres
import Foundation
import PostgresNIO
import Synchronization

/// The first load of a big table into a board (time, memory per row), and bulk edits (time per row).
struct LoadBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "load",
    abstract: "Loads N rows into a board through a follower (time, resident bytes per row); bulk upsert and remove.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Rows in the table.") var rows = 1_000_000
  @Option(help: "Rows per page.") var pageSize = 10_000
  @Option(help: "Rows per bulk upsert and remove (0: none).") var bulk = 100_000
  @Option(help: "The most the load may take, in seconds.") var secondsLimit = 3.0
  @Option(help: "The most resident bytes per loaded row.") var bytesLimit = 100
  @Option(help: "The most a bulk edit may cost per row, in µs.") var microsecondsLimit = 1.0

  func run() async throws {
    try await BenchDatabase.with("load", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    var broken: [String] = []
    if bulk > 0 { broken += try await bulkEdits(store) }
    try await database.execute("DELETE FROM orders")
    try await database.execute(
      "INSERT INTO orders (title, ends_at, paused_remaining) SELECT 'Order ' || n, "
        + "now() + make_interval(secs => 60 + random() * 28800), CASE WHEN n % 20 = 0 THEN 600 END "
        + "FROM generate_series(1, \(rows)) AS n")
    try await database.execute("VACUUM ANALYZE orders")
    await store.close()
    broken += try await load(database, table)
    try await followOnly(database, table)
    guard broken.isEmpty else { throw Broken(description: "load: " + broken.joined(separator: "; ")) }
  }

  /// The follower alone, its rows counted and dropped: what reading and decoding the table costs,
  /// without the board.
  private func followOnly(_ database: BenchDatabase, _ table: DeadlineTable) async throws {
    let follower = PostgresDeadlineFollower(location: database.location, table: table, pageSize: pageSize)
    let start = ContinuousClock.now
    let stats = Mutex((rows: 0, loaded: Duration?.none))
    let task = Task {
      try await follower.run { change in
        stats.withLock { stats in
          if case .upserted(let rows) = change { stats.rows += rows.count }
          if case .caughtUp = change { stats.loaded = ContinuousClock.now - start }
        }
      }
    }
    while stats.withLock({ $0.loaded }) == nil { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    _ = try? await task.value
    let (count, loaded) = stats.withLock { $0 }
    say(
      "load: the follower alone delivered \(count) rows in \(format(loaded.map { milliseconds($0) / 1_000 })) s "
        + "(rows counted, no board)")
  }

  /// Loads the table into a board through `board.follow(_:)`; what was over its limit.
  private func load(_ database: BenchDatabase, _ table: DeadlineTable) async throws -> [String] {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(location: database.location, table: table, pageSize: pageSize)
    let before = residentBytes()
    let processorBefore = processorSeconds()
    let start = ContinuousClock.now
    let task = Task { try await board.follow(follower) }
    // The follower reports that it follows once every page of the first load has been applied.
    while true {
      switch follower.state {
      case .following, .stopped: break
      case .starting, .reconnecting: try await Task.sleep(for: .milliseconds(5)); continue
      }
      break
    }
    let loaded = ContinuousClock.now - start
    let after = residentBytes()
    let processor = processorSeconds() - processorBefore
    task.cancel()
    try? await task.value
    guard board.count == rows else {
      throw Broken(description: "load: the board holds \(board.count) rows, not \(rows)")
    }
    let seconds = milliseconds(loaded) / 1_000
    say(
      "load: \(rows) rows in pages of \(pageSize) through board.follow in \(String(format: "%.2f", seconds)) s "
        + "(\(String(format: "%.2f", milliseconds(loaded) * 1_000 / Double(rows))) µs per row)")
    say("load: the process used \(String(format: "%.2f", processor)) CPU s for the load (all threads)")
    var broken: [String] = []
    if seconds > secondsLimit { broken.append("the load took \(String(format: "%.2f", seconds)) s") }
    if let before, let after {
      let perRow = (after - before) / rows
      say(
        "load: resident memory \(before / 1_048_576) MiB before, \(after / 1_048_576) MiB after: \(perRow) bytes per row"
      )
      if perRow > bytesLimit { broken.append("\(perRow) resident bytes per row") }
    }
    return broken
  }

  /// Upserts `bulk` new rows, upserts them again with new dates, removes them; and, side by side, the same
  /// upsert with the table's row trigger called for each row (as every statement that does not stamp
  /// `changed_xid` itself calls it). What was over its limit.
  private func bulkEdits(_ store: PostgresDeadlines) async throws -> [String] {
    let now = Date()
    let fresh = (1...Int64(bulk)).map { id in
      DeadlineRow(
        id: id, title: "Order \(id)", endsAt: now.addingTimeInterval(60 + Double(id % 28_800)),
        pausedRemaining: id % 20 == 0 ? 600 : nil, eventAt: id % 3 == 0 ? now.addingTimeInterval(86_400) : nil)
    }
    let moved = fresh.map { row in
      var row = row
      row.endsAt = row.endsAt?.addingTimeInterval(300)
      return row
    }
    func timed(_ label: String, _ body: () async throws -> Void) async throws -> Double {
      let start = ContinuousClock.now
      try await body()
      let perRow = milliseconds(ContinuousClock.now - start) * 1_000 / Double(bulk)
      say("load: \(label): \(bulk) rows, \(String(format: "%.2f", perRow)) µs per row")
      return perRow
    }
    var costs: [Double] = []
    costs.append(try await timed("bulk upsert, new rows") { try await store.upsert(fresh) })
    costs.append(try await timed("bulk upsert, new dates for the same rows") { try await store.upsert(moved) })
    costs.append(
      try await timed("bulk remove") {
        let removed = try await store.remove(fresh.map(\.id))
        guard removed == bulk else { throw Broken(description: "load: removed \(removed) rows, not \(bulk)") }
      })
    try await store.upsert(fresh)
    _ = try await timed("for comparison: the same new dates with the row trigger called per row") {
      var binds = PostgresBindings()
      binds.append(moved.map(\.id))
      binds.append(moved.compactMap(\.endsAt))
      try await store.connection.query(
        PostgresQuery(
          unsafeSQL: """
            UPDATE orders AS t SET ends_at = u.ends_at FROM unnest($1::int8[], $2::timestamptz[]) AS u(id, ends_at)
            WHERE t.id = u.id
            """, binds: binds), logger: .quiet)
    }
    let worst = costs.max() ?? 0
    return worst > microsecondsLimit ? ["a bulk edit cost \(String(format: "%.2f", worst)) µs per row"] : []
  }
}
