import Foundation
import Synchronization
import Testing

@testable import CountdownPostgres

extension ServerTests {
  /// The worker keeps its engine on the server's clock while that clock moves against the local one,
  /// and never claims a deadline before the server's own clock reaches it.
  @Suite("A worker on the server's clock")
  struct ServerClockTests {
    /// The offsets a worker measured, in order.
    final class Offsets: Sendable {
      let list = Mutex<[Duration]>([])
    }

    @Test func aChangedOffsetIsMeasuredAgainAndNeverMakesAClaimEarly() async throws {
      let database = try await TestServer.freshDatabase("clock")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      // The clock the worker reads is the server's plus a skew the test sets; the claims still use the
      // server's own `now()`, as when the worker's estimate is wrong.
      try await database.execute("CREATE TABLE skew AS SELECT interval '0 s' AS d")
      let offsets = Offsets()
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "clock-worker", lease: .seconds(10),
        failureDelay: .seconds(1), maxRetryDelay: .seconds(60), maxAttempts: 10, followUpTimeout: nil,
        concurrency: 16, claimBatch: 500, sweepInterval: .seconds(5), drainGrace: .seconds(1),
        heartbeatInterval: .seconds(3),
        clockInterval: .milliseconds(200), tolerance: .milliseconds(20), applicationName: "clock-worker",
        logger: .quiet,
        clockQuery: "SELECT clock_timestamp() + (SELECT d FROM skew)")
      let task = Task {
        try await worker.run(events: { event in
          if case .clockSynchronized(let offset, _) = event { offsets.list.withLock { $0.append(offset) } }
        }) { _ in }
      }
      func measured(near target: Duration) async -> Bool {
        await eventually { offsets.list.withLock { $0.last.map { abs(($0 - target).timeInterval) < 0.1 } ?? false } }
      }
      #expect(await measured(near: .zero), "the first measurement: the server's clock is this machine's")
      try await database.execute("UPDATE skew SET d = interval '3 s'")
      #expect(await measured(near: .seconds(3)), "measured again: the clock it reads is now 3 s ahead")

      // With the estimate 3 s ahead of the server's real clock, the worker wakes 3 s early for each
      // deadline: the server refuses every early claim, and the rows expire once their deadline passed.
      try await database.execute(
        "INSERT INTO orders (title, ends_at) SELECT 'ahead ' || n, now() + interval '1 s' + n * interval '50 ms' "
          + "FROM generate_series(1, 20) AS n")
      #expect(
        try await eventually(within: .seconds(20)) {
          try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [0]
        })
      try await database.execute("UPDATE skew SET d = interval '0 s'")
      #expect(await measured(near: .zero), "measured again when the clock came back")
      try await database.execute(
        "INSERT INTO orders (title, ends_at) SELECT 'on time ' || n, now() + interval '1 s' + n * interval '50 ms' "
          + "FROM generate_series(1, 20) AS n")
      #expect(
        try await eventually(within: .seconds(20)) {
          try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [0]
        })
      task.cancel()
      #expect(
        try await database.integers("SELECT count(*) FROM orders WHERE expired_at < ends_at") == [0], "none early")
      #expect(try await database.integers("SELECT count(*) FROM orders_attempts") == [40], "each claimed once")
      let late = try await database.integers(
        "SELECT COALESCE((EXTRACT(EPOCH FROM max(expired_at - ends_at)) * 1000)::int8, -1) FROM orders "
          + "GROUP BY title LIKE 'ahead%' "
          + "ORDER BY title LIKE 'ahead%'")
      print(
        "ServerClockTests: latest expiry on the right clock \(late.first ?? -1) ms, 3 s ahead \(late.last ?? -1) ms")
      await store.close()
      await database.drop()
    }
  }
}
