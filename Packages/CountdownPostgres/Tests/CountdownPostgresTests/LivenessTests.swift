import CountdownPostgres
import Foundation
import Testing

extension ServerTests {
  /// A server that stops answering without closing the connection, and a follower away longer than the
  /// log of deleted ids goes back.
  @Suite("A silent server and a pruned log")
  struct LivenessTests {
    /// Stops the server process `pid` (SIGSTOP) until `body` ends, then lets it go on (SIGCONT).
    static func stopped<T>(_ pid: Int32, _ body: () async throws -> T) async rethrows -> T {
      kill(pid, SIGSTOP)
      defer { kill(pid, SIGCONT) }
      return try await body()
    }

    /// A follower of `table` with a heartbeat of `interval`, into a new mirror, once it has loaded; and
    /// the server process serving it.
    static func follow(
      _ database: TestDatabase, _ table: DeadlineTable, name: String, interval: Duration
    ) async throws -> (mirror: Mirror, task: Task<Void, any Error>, backend: Int32?) {
      let mirror = Mirror()
      let follower = PostgresDeadlineFollower(
        location: database.location, table: table, heartbeatInterval: interval, applicationName: name)
      let task = Task { try await follower.run { mirror.apply($0) } }
      #expect(await eventually { mirror.counts.firstLoads == 1 })
      // Between two heartbeats the backend is idle (not inside a transaction or holding a lock).
      var backend: Int32?
      _ = try await eventually {
        backend = try await database.integers(
          "SELECT pid FROM pg_stat_activity WHERE application_name = '\(name)' AND state = 'idle'"
        ).first.map { Int32(truncatingIfNeeded: $0) }
        return backend != nil
      }
      return (mirror, task, backend)
    }

    @Test func aStoppedServerIsNoticedWithinTwoHeartbeatsAndTheFollowerCatchesUp() async throws {
      let database = try await TestServer.freshDatabase("hung")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 0..<20 { try await store.add(title: "v0 \(index)", endsAt: Date().addingTimeInterval(600)) }
      let interval = Duration.seconds(1)
      let (mirror, task, backend) = try await Self.follow(database, table, name: "hung-follower", interval: interval)
      guard let backend else {
        Issue.record("no idle server process for the follower")
        return
      }
      let stoppedAt = ContinuousClock.now
      try await Self.stopped(backend) {
        try await store.add(title: "added while stopped", endsAt: Date().addingTimeInterval(60))
        try await store.remove(3)
        try await store.setEnd(of: 5, to: Date().addingTimeInterval(120), now: Date())
        #expect(await eventually(within: .seconds(10)) { mirror.firstInterruption(after: stoppedAt) != nil })
        let noticed = mirror.firstInterruption(after: stoppedAt).map { $0 - stoppedAt }
        print(
          "LivenessTests: a stopped server was noticed after \(noticed.map { "\($0)" } ?? "never") (heartbeat \(interval))"
        )
        #expect(noticed.map { $0 <= interval * 2 } == true, "noticed within two heartbeat intervals")
        #expect(try await eventually { mirror.matches(try await store.rows()) }, "caught up on a new connection")
      }
      // (The rows of a catch-up arrive before its `caughtUp`.)
      #expect(await eventually { mirror.counts.catchUps >= 1 })
      #expect(mirror.counts.reloads == 0)
      #expect(mirror.regressions.isEmpty)
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aFollowerAwayLongerThanTheLogReloadsInsteadOfMissingADeletion() async throws {
      let database = try await TestServer.freshDatabase("pruned")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 0..<20 { try await store.add(title: "v0 \(index)", endsAt: Date().addingTimeInterval(600)) }
      let (mirror, task, backend) = try await Self.follow(database, table, name: "away-follower", interval: .seconds(1))
      guard let backend else {
        Issue.record("no idle server process for the follower")
        return
      }
      try await Self.stopped(backend) {
        try await store.remove(3)
        try await store.remove(4)
        let pruned = try await table.pruneRemoved(on: store.connection, at: database.location, olderThan: .zero)
        #expect(pruned == 2, "the log held the two deletions, and now holds none")
        #expect(await eventually { mirror.counts.reloads >= 1 }, "the follower reloads")
        #expect(try await eventually { mirror.matches(try await store.rows()) }, "rows 3 and 4 are gone from it too")
      }
      #expect(mirror.rows[3] == nil && mirror.rows[4] == nil)
      task.cancel()
      await store.close()
      await database.drop()
    }
  }
}
