import CountdownPostgres
import Foundation
import Synchronization
import Testing

extension ServerTests {
  @Suite("Expiry workers on a real table")
  struct ExpiryWorkerTests {
    /// Follow-ups run, as (row, attempt, worker).
    final class FollowUps: Sendable {
      private let runs = Mutex<[(id: Int64, attempt: Int, worker: String)]>([])

      func record(_ expired: ExpiredDeadline, by worker: String) {
        runs.withLock { $0.append((expired.id, expired.attempt, worker)) }
      }

      var all: [(id: Int64, attempt: Int, worker: String)] { runs.withLock { $0 } }
    }

    @Test func eachDeadlineExpiresOnceNeverEarlyAndPausedAndMovedRowsAreRespected() async throws {
      let database = try await TestServer.freshDatabase("expire")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let now = Date()
      try await store.add(
        (0..<150).map { index in
          (
            title: "d\(index)", endsAt: now.addingTimeInterval(0.3 + Double(index % 50) * 0.03), pausedRemaining: nil,
            eventAt: nil
          )
        })
      let paused = try await store.add(title: "paused", endsAt: now.addingTimeInterval(0.4))
      try await store.pause(paused, now: now)
      // Far enough ahead that the move below comes before it, however busy the machine.
      let moved = try await store.add(title: "moved", endsAt: now.addingTimeInterval(60))
      let overdue = try await store.add(title: "already over", endsAt: now.addingTimeInterval(-30))

      let followUps = FollowUps()
      let workers = (0..<3).map { index in
        let name = "worker-\(index)"
        let worker = DeadlineExpiryWorker(
          location: database.location, table: table, name: name, lease: .seconds(5), applicationName: "expire-\(index)")
        return Task { try await worker.run { followUps.record($0, by: name) } }
      }
      // Once a worker has followed up the row that was already over, the workers are running and have
      // scheduled the rest: move a deadline they are waiting for.
      #expect(await eventually { followUps.all.contains { $0.id == overdue } }, "the overdue row expired at once")
      let newEnd = Date().addingTimeInterval(1.5)
      try await store.setEnd(of: moved, to: newEnd, now: Date())

      let done = try await eventually(within: .seconds(20)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL").first == 1
      }
      #expect(done, "every running row was followed up")
      for worker in workers { worker.cancel() }

      let twice = try await database.integers(
        "SELECT id FROM orders_attempts WHERE attempt = 1 GROUP BY id HAVING count(*) > 1")
      #expect(twice.isEmpty, "rows expired twice: \(twice)")
      let early = try await database.integers("SELECT id FROM orders WHERE expired_at < ends_at")
      #expect(early.isEmpty, "rows expired early: \(early)")
      #expect(try await database.integers("SELECT count(*) FROM orders WHERE expired_at IS NULL") == [1])
      #expect(try await database.integers("SELECT id FROM orders WHERE expired_at IS NULL") == [paused])
      let movedLate = try await database.integers(
        "SELECT (EXTRACT(EPOCH FROM expired_at - ends_at) * 1000)::int8 FROM orders WHERE id = \(moved)")
      let movedEnd = try await store.rows().first { $0.id == moved }?.endsAt
      #expect(movedEnd.map { abs($0.timeIntervalSince(newEnd)) < 0.001 } == true, "the moved row kept its new deadline")
      #expect(movedLate.first.map { $0 >= 0 } == true, "the moved row expired at its new deadline, not before")
      let runs = followUps.all
      let ids = Set(runs.map(\.id))
      #expect(ids.count == 152, "150 rows, the moved one and the overdue one")
      #expect(!ids.contains(paused))
      #expect(ids.contains(overdue), "a row already over when the workers start expires at once")
      #expect(runs.count == ids.count, "with no worker dying, each follow-up ran once (\(runs.count) runs)")
      #expect(runs.allSatisfy { $0.attempt == 1 })
      #expect(Set(runs.map(\.worker)).count > 1, "the work was shared")
      let lateness = try await database.integers(
        "SELECT (EXTRACT(EPOCH FROM expired_at - ends_at) * 1000)::int8 FROM orders WHERE id <> \(overdue) AND expired_at IS NOT NULL ORDER BY 1"
      )
      let p99 = lateness[min(lateness.count - 1, lateness.count * 99 / 100)]
      print("ExpiryWorkerTests: \(runs.count) follow-ups for \(ids.count) rows; lateness p99 \(p99) ms")
      #expect(p99 < 1_000)
      await store.close()
      await database.drop()
    }

    @Test func aFailedFollowUpIsRetried() async throws {
      let database = try await TestServer.freshDatabase("retry")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "flaky", endsAt: Date().addingTimeInterval(0.2))
      let followUps = FollowUps()
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "flaky-worker", failureDelay: .milliseconds(300))
      struct Flaky: Error {}
      let task = Task {
        try await worker.run { expired in
          followUps.record(expired, by: "w")
          if expired.attempt == 1 { throw Flaky() }
        }
      }
      #expect(
        try await eventually {
          try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL") == [1]
        })
      task.cancel()
      #expect(followUps.all.map(\.attempt) == [1, 2])
      #expect(followUps.all.allSatisfy { $0.id == id })
      #expect(
        try await database.integers("SELECT count(*) FROM orders_attempts WHERE followed_up_at IS NOT NULL") == [1])
      await store.close()
      await database.drop()
    }
  }
}
