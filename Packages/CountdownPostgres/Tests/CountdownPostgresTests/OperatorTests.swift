import CountdownPostgres
import Foundation
import MetricsTestKit
import Synchronization
import Testing

extension ServerTests {
  /// What an operator sees and bounds: metrics, and how long followed-up rows and attempts are kept.
  @Suite("An operator's controls")
  struct OperatorTests {
    @Test func workersCountExpiriesFollowUpsAndTheirFollowersLag() async throws {
      let database = try await TestServer.freshDatabase("metrics")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 0..<5 { try await store.add(title: "m\(index)", endsAt: Date().addingTimeInterval(0.3)) }
      let failing = try await store.add(title: "fails", endsAt: Date().addingTimeInterval(0.3))
      let metrics = TestMetrics()
      struct Failing: Error {}
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "counted", maxAttempts: 1, heartbeatInterval: .seconds(1),
        applicationName: "metrics-worker", metrics: metrics)
      let task = Task { try await worker.run { if $0.id == failing { throw Failing() } } }
      #expect(
        try await eventually {
          try await database.integers(
            "SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL OR discarded_at IS NOT NULL") == [6]
        })
      let dimensions = [("table", "public.orders")]
      #expect(
        await eventually {
          (try? metrics.expectTimer("countdown_follower_lag_seconds", dimensions))?.values.count ?? 0 >= 2
        })
      task.cancel()
      #expect(try metrics.expectCounter("countdown_expiries_total", dimensions).totalValue == 6)
      #expect(try metrics.expectCounter("countdown_claims_won_total", dimensions).totalValue == 6)
      #expect(
        try metrics.expectCounter("countdown_follow_ups_total", dimensions + [("outcome", "recorded")]).totalValue == 5)
      #expect(
        try metrics.expectCounter("countdown_follow_ups_total", dimensions + [("outcome", "discarded")]).totalValue == 1
      )
      let lateness = try metrics.expectTimer("countdown_expiry_lateness_seconds", dimensions).values
      #expect(lateness.count == 6 && lateness.allSatisfy { $0 >= 0 })
      let lag = try metrics.expectTimer("countdown_follower_lag_seconds", dimensions).values
      print("OperatorTests: follower lag \(lag.map { Double($0) / 1e6 }) ms")
      #expect(
        lag.allSatisfy { $0 > 0 && $0 < 1_000_000_000 }, "a marker comes back through the channel within a second")
      await store.close()
      await database.drop()
    }

    @Test func followedUpRowsAndTheirAttemptsAreKeptForTheirRetention() async throws {
      let database = try await TestServer.freshDatabase("retention")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let done = try await store.add(title: "done", endsAt: Date().addingTimeInterval(0.2))
      let waiting = try await store.add(title: "waiting", endsAt: Date().addingTimeInterval(600))
      // An old attempt of a row still waiting (a retry from long ago) is kept.
      try await database.execute(
        """
        INSERT INTO orders_attempts (id, attempt, worker, claimed_at) VALUES (\(waiting), 1, 'old', now() - interval '1 day')
        """)
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "keeper", attemptRetention: .seconds(1),
        rowRetention: .seconds(1), heartbeatInterval: .seconds(1), applicationName: "retention-worker")
      let task = Task { try await worker.run { _ in } }
      #expect(
        try await eventually(within: .seconds(15)) {
          try await database.integers("SELECT count(*) FROM orders WHERE id = \(done)") == [0]
        }, "the followed-up row was deleted a second after its follow-up")
      #expect(
        try await eventually {
          try await database.integers("SELECT id FROM orders_attempts") == [waiting]
        }, "its attempt went with it; the waiting row's old attempt stays")
      #expect(try await database.integers("SELECT id FROM orders") == [waiting])
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aFollowerWhoseConsumerFallsBehindLetsGoAndCatchesUp() async throws {
      let database = try await TestServer.freshDatabase("behind")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 1...5 { try await store.add(title: "v0 \(index)", endsAt: Date().addingTimeInterval(600)) }
      let mirror = Mirror()
      let slow = Mutex(false)
      let follower = PostgresDeadlineFollower(
        location: database.location, table: table, heartbeatInterval: .seconds(1), applicationName: "behind-follower",
        maxPendingNotifications: 20)
      let task = Task {
        try await follower.run { change in
          mirror.apply(change)
          if case .upserted = change, slow.withLock({ $0 }) { try? await Task.sleep(for: .seconds(3)) }
        }
      }
      #expect(await eventually { mirror.counts.firstLoads == 1 })
      slow.withLock { $0 = true }
      for version in 1...60 {
        try await database.execute("UPDATE orders SET title = 'v\(version)' WHERE id = \(version % 5 + 1)")
      }
      #expect(await eventually { mirror.counts.interruptions >= 1 }, "the follower let go of its connection")
      slow.withLock { $0 = false }
      #expect(try await eventually { mirror.matches(try await store.rows()) }, "and caught up")
      // (The rows of a catch-up arrive before its `caughtUp`.)
      #expect(await eventually { mirror.counts.catchUps >= 1 })
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aCancelledWorkerReturns() async throws {
      let database = try await TestServer.freshDatabase("cancelled")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      try await store.add(title: "long", endsAt: Date().addingTimeInterval(0.2))
      let started = Mutex(false)
      let returned = Mutex(false)
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "cancelled", heartbeatInterval: .seconds(1),
        applicationName: "cancelled-worker")
      let task = Task {
        _ = try? await worker.run { _ in
          started.withLock { $0 = true }
          try await Task.sleep(for: .seconds(60))
        }
        returned.withLock { $0 = true }
      }
      #expect(await eventually { started.withLock { $0 } })
      task.cancel()
      #expect(await eventually(within: .seconds(5)) { returned.withLock { $0 } }, "run returned once cancelled")
      await store.close()
      await database.drop()
    }
  }
}
