import CountdownPostgres
import Foundation
import PostgresNIO
import Testing

extension ServerTests {
  /// The short version of the convergence measurement (`scripts/postgres-bench converge` runs the long one).
  @Suite("Followers converge under random edits")
  struct ConvergenceTests {
    @Test func everyFollowerEndsEqualToTheTableAndNoRowGoesBack() async throws {
      let seed =
        ProcessInfo.processInfo.environment["COUNTDOWN_TEST_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)
      print("ConvergenceTests seed: \(seed) (replay the edits with COUNTDOWN_TEST_SEED=\(seed))")
      var random = SplitMix64(seed: seed)
      let database = try await TestServer.freshDatabase("converge")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let now = Date()
      var version = 0
      func nextTitle() -> String {
        version += 1
        return "v\(version)"
      }
      var ids: [Int64] = []
      for _ in 0..<200 { ids.append(try await store.add(title: nextTitle(), endsAt: now.addingTimeInterval(600))) }

      let names = ["converge-a", "converge-b"]
      let mirrors = names.map { _ in Mirror() }
      let followers = zip(names, mirrors).map { name, mirror in
        let follower = PostgresDeadlineFollower(
          location: database.location, table: table, heartbeatInterval: .seconds(1), applicationName: name)
        return Task { try await follower.run { mirror.apply($0) } }
      }
      for mirror in mirrors { #expect(await eventually { mirror.counts.firstLoads == 1 }) }

      let killer = Task {
        var index = 0
        while !Task.isCancelled {
          try await Task.sleep(for: .milliseconds(300))
          try await database.terminate(applicationName: names[index % names.count])
          index += 1
        }
      }
      let connection = store.connection
      let started = ContinuousClock.now
      var edits = 0
      while ContinuousClock.now - started < .seconds(2.5) {
        edits += 1
        let id = ids[Int(random.next() % UInt64(ids.count))]
        switch random.next() % 10 {
        case 0:
          ids.append(
            try await store.add(title: nextTitle(), endsAt: now.addingTimeInterval(Double(random.next() % 900))))
        case 1 where ids.count > 50:
          try await store.remove(id)
          ids.removeAll { $0 == id }
        case 2:
          // Several rows in one transaction.
          let some = (0..<3).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
          try await connection.query("BEGIN", logger: .quiet)
          for row in some {
            try await connection.query(
              "UPDATE orders SET title = \(nextTitle()), ends_at = ends_at + interval '1 second' WHERE id = \(row)",
              logger: .quiet)
          }
          try await connection.query("COMMIT", logger: .quiet)
        case 3:
          try await connection.query(
            "UPDATE orders SET title = \(nextTitle()), paused_remaining = 30 WHERE id = \(id)", logger: .quiet)
        default:
          try await connection.query(
            "UPDATE orders SET title = \(nextTitle()), paused_remaining = NULL, ends_at = \(now.addingTimeInterval(Double(random.next() % 900))) WHERE id = \(id)",
            logger: .quiet)
        }
      }
      killer.cancel()
      let expected = try await store.rows()
      for (name, mirror) in zip(names, mirrors) {
        #expect(await eventually { mirror.matches(expected) }, "\(name) differs from the table (seed \(seed))")
        #expect(mirror.regressions.isEmpty, "\(name): \(mirror.regressions.prefix(3)) (seed \(seed))")
        #expect(mirror.counts.catchUps >= 2, "\(name) was cut off and caught up")
      }
      print("ConvergenceTests: \(edits) edits, catch-ups \(mirrors.map(\.counts.catchUps))")
      for follower in followers {
        follower.cancel()
        do {
          try await follower.value
        } catch {
          Issue.record("a follower stopped: \(error)")
        }
      }
      await store.close()
      await database.drop()
    }
  }

  /// SplitMix64: a small seedable generator, so that a failing run can be replayed from its seed.
  struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
      state = seed
    }

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
