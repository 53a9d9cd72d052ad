import ArgumentParser
import CountdownKit
import CountdownPostgres
import Foundation
import Synchronization

/// The first load of a big table into a board: how long it takes and what it costs in memory.
struct LoadBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "load", abstract: "Loads N rows into a board through a follower: time and resident memory per row.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Rows in the table.") var rows = 1_000_000
  @Option(help: "Rows per page.") var pageSize = 10_000

  func run() async throws {
    try await BenchDatabase.with("load", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    await store.close()
    try await database.execute(
      "INSERT INTO orders (title, ends_at, paused_remaining) SELECT 'Order ' || n, "
        + "now() + make_interval(secs => 60 + random() * 28800), CASE WHEN n % 20 = 0 THEN 600 END "
        + "FROM generate_series(1, \(rows)) AS n")
    try await database.execute("VACUUM ANALYZE orders")
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(location: database.location, table: table, pageSize: pageSize)
    let before = residentBytes()
    let start = ContinuousClock.now
    let stats = Mutex((applying: Duration.zero, pages: 0, loaded: Duration?.none))
    let task = Task {
      try await follower.run { change in
        let applyStart = ContinuousClock.now
        board.apply(change)
        let applied = ContinuousClock.now
        stats.withLock { stats in
          stats.applying += applied - applyStart
          if case .upserted = change { stats.pages += 1 }
          if case .caughtUp = change { stats.loaded = applied - start }
        }
      }
    }
    while stats.withLock({ $0.loaded }) == nil { try await Task.sleep(for: .milliseconds(10)) }
    let after = residentBytes()
    task.cancel()
    _ = try? await task.value
    let (applying, pages, loaded) = stats.withLock { $0 }
    guard board.count == rows, let loaded else {
      throw Broken(description: "load: the board holds \(board.count) rows, not \(rows)")
    }
    let seconds = milliseconds(loaded) / 1_000
    say(
      "load: \(rows) rows in \(pages) pages of \(pageSize) in \(String(format: "%.2f", seconds)) s "
        + "(\(String(format: "%.2f", milliseconds(loaded) * 1_000 / Double(rows))) µs per row; "
        + "applying to the board \(String(format: "%.2f", milliseconds(applying) / 1_000)) s of it)")
    if let before, let after {
      say(
        "load: resident memory \(before / 1_048_576) MiB before, \(after / 1_048_576) MiB after: "
          + "\((after - before) / rows) bytes per row")
    }
  }
}
