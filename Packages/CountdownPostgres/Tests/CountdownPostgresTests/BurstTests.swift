import CountdownPostgres
import Foundation
import Synchronization
import Testing

extension ServerTests {
  /// The short version of the burst measurement (`scripts/postgres-bench burst` runs 100,000): many
  /// deadlines due in the same second, shared by several workers.
  @Suite("A burst of deadlines")
  struct BurstTests {
    /// Which worker ran each follow-up.
    final class Runs: Sendable {
      let byWorker = Mutex<[String: Int]>([:])
    }

    @Test func twentyThousandDeadlinesDueInOneSecondAreEachClaimedOnceNeverEarlyByAllWorkers() async throws {
      let database = try await TestServer.freshDatabase("burst")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let count = 20_000
      let runs = Runs()
      let names = (0..<4).map { "burst-\($0)" }
      let workers = names.map { name in
        let worker = DeadlineExpiryWorker(
          location: database.location, table: table, name: name, lease: .seconds(30), applicationName: name)
        return Task {
          try await worker.run { _ in runs.byWorker.withLock { $0[name, default: 0] += 1 } }
        }
      }
      // Every worker has connected and followed the (empty) table once its claims connection shows up.
      #expect(
        try await eventually {
          try await database.integers(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'burst-%-claims'") == [4]
        })
      try await database.execute(
        "INSERT INTO orders (title, ends_at) SELECT 'd' || n, date_trunc('second', now()) + interval '3 s' "
          + "+ random() * interval '0.999 s' FROM generate_series(1, \(count)) AS n")
      let done = try await eventually(within: .seconds(120)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [0]
      }
      for task in workers { task.cancel() }
      #expect(done, "every follow-up recorded")
      #expect(try await database.integers("SELECT count(*) FROM orders WHERE expired_at IS NULL") == [0])
      #expect(
        try await database.integers("SELECT count(*) FROM orders WHERE expired_at < ends_at") == [0], "none early")
      #expect(
        try await database.integers("SELECT count(*) FROM orders_attempts") == [Int64(count)],
        "each row claimed once: one attempt each")
      #expect(try await database.integers("SELECT count(DISTINCT id) FROM orders_attempts") == [Int64(count)])
      // With commit timestamps (scripts/postgres-dev turns them on), each claim's commit is known.
      if try await database.integers("SELECT (current_setting('track_commit_timestamp') = 'on')::int") == [1] {
        let overrun = try await database.integers(
          "SELECT count(*) FROM orders_attempts WHERE lease_until <= pg_xact_commit_timestamp(xmin)")
        #expect(overrun == [0], "no claim committed with its lease already over")
      }
      let shares = runs.byWorker.withLock { $0 }
      #expect(shares.values.reduce(0, +) == count, "each follow-up ran once")
      #expect(shares.count == 4, "all four workers took part: \(shares)")
      let span = try await database.integers(
        "SELECT (EXTRACT(EPOCH FROM max(expired_at) - min(ends_at)) * 1000)::int8 FROM orders")
      print("BurstTests: \(count) deadlines, last expired \(span.first ?? -1) ms after the first was due; \(shares)")
      await store.close()
      await database.drop()
    }
  }
}
