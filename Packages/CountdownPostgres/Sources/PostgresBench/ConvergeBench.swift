import ArgumentParser
import CountdownKit
import CountdownPostgres
import Foundation
import PostgresNIO
import Synchronization

/// Followers converge under load: a writer edits rows at a steady rate while boards follow the table
/// and the server ends one follower's connection at regular intervals.
struct ConvergeBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "converge",
    abstract: "N followers, 1 writer at R edits/s for S seconds, a follower's connection ended every K seconds.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Followers, each with its own engine, board and connection.") var followers = 3
  @Option(help: "Edits per second (one transaction each).") var rate = 1_000
  @Option(help: "How long the writer writes, in seconds.") var seconds = 60.0
  @Option(help: "Seconds between two connections ended by the server.") var killEvery = 10.0
  @Option(help: "Rows in the table.") var rows = 10_000
  @Option(help: "The most p50 from commit to board may be, in ms.") var p50Limit = 50.0
  @Option(help: "The most p99 from commit to board may be, in ms.") var p99Limit = 250.0

  func run() async throws {
    try await BenchDatabase.with("converge", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'v0', now() + make_interval(secs => 60 + random() * 7200) "
        + "FROM generate_series(1, \(rows))")
    let sent = SentTimes()
    let boards = (0..<followers).map { BenchFollower(index: $0, database: database, table: table, sent: sent) }
    let tasks = boards.map { board in Task { try await board.run() } }
    for board in boards {
      while !board.hasLoaded { try await Task.sleep(for: .milliseconds(20)) }
    }
    say("converge: \(followers) followers loaded \(rows) rows; writing \(rate) edits/s for \(seconds) s")

    let killer = Task {
      var index = 0
      while true {
        try await Task.sleep(for: .seconds(killEvery))
        let name = "converge-\(index % followers)"
        let ended = try await database.terminate(applicationName: name)
        say("converge: t=\(Int(Double(index + 1) * killEvery)) s, the server ended \(name)'s connection (\(ended))")
        index += 1
      }
    }
    let edits = try await write(store.connection, sent: sent)
    killer.cancel()

    let table_ = try await store.rows()
    var converged = true
    for board in boards {
      let deadline = ContinuousClock.now + .seconds(30)
      while !board.equals(table_), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
      if !board.equals(table_) {
        converged = false
        say("converge: follower \(board.index) does NOT equal the table")
      }
    }
    for task in tasks { task.cancel() }
    await store.close()
    try report(boards: boards, edits: edits, converged: converged)
  }

  /// Edits random rows at `rate` for `seconds`, one transaction each; returns how many and how long.
  private func write(_ connection: PostgresConnection, sent: SentTimes) async throws -> (count: Int, elapsed: Duration)
  {
    var random = SystemRandomNumberGenerator()
    let start = ContinuousClock.now
    var version = 0
    let total = Int(Double(rate) * seconds)
    while version < total {
      version += 1
      let due = start + .seconds(Double(version) / Double(rate))
      if ContinuousClock.now < due { try await Task.sleep(until: due, tolerance: nil) }
      let id = Int64.random(in: 1...Int64(rows), using: &random)
      let title = "v\(version)"
      sent.record(version)
      if Int.random(in: 0..<10, using: &random) == 0 {
        try await connection.query(
          "UPDATE orders SET title = \(title), paused_remaining = \(Double.random(in: 60...600, using: &random)) WHERE id = \(id)",
          logger: .quiet)
      } else {
        let end = Date().addingTimeInterval(.random(in: 60...7_200, using: &random))
        try await connection.query(
          "UPDATE orders SET title = \(title), ends_at = \(end), paused_remaining = NULL WHERE id = \(id)",
          logger: .quiet)
      }
    }
    return (total, ContinuousClock.now - start)
  }

  private func report(boards: [BenchFollower], edits: (count: Int, elapsed: Duration), converged: Bool) throws {
    let achieved = Double(edits.count) / (milliseconds(edits.elapsed) / 1_000)
    say(
      "converge: \(edits.count) edits in \(String(format: "%.1f", milliseconds(edits.elapsed) / 1_000)) s = "
        + "\(Int(achieved)) edits/s")
    var all: [Double] = []
    for board in boards {
      let latencies = board.latencies.sorted()
      all += latencies
      let counts = board.counts
      say(
        "converge: follower \(board.index): \(latencies.count) edits seen (the rest superseded before it read them), "
          + "p50 \(format(quantile(latencies, 0.5))) ms, p99 \(format(quantile(latencies, 0.99))) ms, "
          + "max \(format(latencies.last)) ms; \(counts.interruptions) connections lost, \(counts.catchUps) catch-ups")
    }
    all.sort()
    let p50 = quantile(all, 0.5) ?? .infinity
    let p99 = quantile(all, 0.99) ?? .infinity
    say("converge: all followers: p50 \(format(p50)) ms, p99 \(format(p99)) ms (limits \(p50Limit) / \(p99Limit))")
    say("converge: every follower equals the table: \(converged ? "yes" : "NO")")
    guard converged, p50 <= p50Limit, p99 <= p99Limit else {
      throw Broken(description: "converge: a promise was broken (see above)")
    }
  }

  private func format(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
}

/// When the writer sent each version, on the monotonic clock.
final class SentTimes: Sendable {
  private let times = Mutex<[Int: ContinuousClock.Instant]>([:])

  func record(_ version: Int) {
    let now = ContinuousClock.now
    times.withLock { $0[version] = now }
  }

  func time(of version: Int) -> ContinuousClock.Instant? { times.withLock { $0[version] } }
}
