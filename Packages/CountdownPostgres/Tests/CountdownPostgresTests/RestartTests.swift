import CountdownPostgres
import Foundation
import Synchronization
import Testing

extension ServerTests {
  /// `pg_ctl restart` under followers and workers, on a cluster of this test's own.
  @Suite("A server restart")
  struct RestartTests {
    @Test func boardsConvergeAndNoDeadlineIsLostOrExpiredTwice() async throws {
      let cluster = try await PrivateCluster.start()
      do {
        try await converge(on: cluster)
      } catch {
        await cluster.stop()
        throw error
      }
      await cluster.stop()
    }

    private func converge(on cluster: PrivateCluster) async throws {
      let location = try PostgresLocation(url: cluster.url)
      let database = TestDatabase(location: location, server: location)
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: location, table: table, create: true)
      let mirrors = (0..<2).map { _ in Mirror() }
      let followers = mirrors.enumerated().map { index, mirror in
        let follower = PostgresDeadlineFollower(
          location: location, table: table, heartbeatInterval: .seconds(1), applicationName: "restart-follower-\(index)"
        )
        return Task { try await follower.run { mirror.apply($0) } }
      }
      let followUps = ExpiryWorkerTests.FollowUps()
      let workers = (0..<2).map { index in
        let name = "restart-worker-\(index)"
        let worker = DeadlineExpiryWorker(
          location: location, table: table, name: name, lease: .seconds(2), heartbeatInterval: .seconds(1),
          applicationName: name)
        return Task { try await worker.run { followUps.record($0, by: name) } }
      }
      for mirror in mirrors { #expect(await eventually { mirror.counts.firstLoads == 1 }) }
      try await store.add(
        (0..<300).map { index in
          (
            title: "v1 \(index)", endsAt: Date().addingTimeInterval(1 + Double(index) * 0.015), pausedRemaining: nil,
            eventAt: nil
          )
        })
      #expect(try await eventually { try await database.integers("SELECT count(*) FROM orders_attempts") != [0] })
      try await cluster.restart()
      // Edits after the restart reach the boards too.
      let edits = try await PostgresDeadlines.connect(to: location, table: table)
      try await edits.setEnd(of: 300, to: Date().addingTimeInterval(3), now: Date())
      try await edits.remove(299)
      let done = try await eventually(within: .seconds(60)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [0]
      }
      #expect(done, "every deadline expired and followed up")
      let expected = try await edits.rows()
      for mirror in mirrors {
        #expect(await eventually { mirror.matches(expected) }, "the board equals the table")
        #expect(mirror.counts.interruptions >= 1, "the restart cut the follower's connection")
        #expect(mirror.regressions.isEmpty)
      }
      for task in followers + workers { task.cancel() }
      #expect(
        try await database.integers("SELECT count(*) FROM orders WHERE expired_at < ends_at") == [0], "none early")
      #expect(
        try await database.integers(
          "SELECT count(*) FROM (SELECT id FROM orders_attempts WHERE attempt = 1 GROUP BY id HAVING count(*) > 1) AS t"
        )
          == [0], "none expired twice")
      #expect(Set(expected.map(\.id)).isSubset(of: Set(followUps.all.map(\.id))), "every follow-up ran")
      print("RestartTests: \(followUps.all.count) follow-up runs for \(expected.count) deadlines across a restart")
      await edits.close()
      await store.close()
    }
  }
}
