import Foundation
import Synchronization
import Testing

@testable import CountdownPostgres

extension ServerTests {
  /// Follow-ups with a lease a worker can rely on: a moved deadline fires again, a worker that cannot
  /// extend its lease gives the follow-up up before the lease ends, recording checks the attempt.
  @Suite("Leases you can rely on")
  struct LeaseTests {
    /// When each follow-up ran, on this process's clock.
    final class Runs: Sendable {
      struct Run: Sendable {
        var id: Int64
        var attempt: Int
        var endsAt: Date
        var worker: String
        var start: ContinuousClock.Instant
        var end: ContinuousClock.Instant?
      }
      private let runs = Mutex<[Run]>([])

      /// Runs `body` as the follow-up of `expired` by `worker`, recording when it started and ended
      /// (however it ended: returned, threw or was cancelled).
      func run(
        _ expired: ExpiredDeadline, by worker: String, _ body: () async throws -> Void
      ) async throws {
        let index = runs.withLock {
          $0.append(
            Run(id: expired.id, attempt: expired.attempt, endsAt: expired.endsAt, worker: worker, start: .now))
          return $0.count - 1
        }
        defer { runs.withLock { $0[index].end = .now } }
        try await body()
      }

      var all: [Run] { runs.withLock { $0 } }

      /// Pairs of runs of the same row that overlapped in time.
      var overlaps: [(Run, Run)] {
        let all = self.all
        var found: [(Run, Run)] = []
        for (i, a) in all.enumerated() {
          for b in all[(i + 1)...] where a.id == b.id {
            let aEnd = a.end ?? .now
            let bEnd = b.end ?? .now
            if a.start < bEnd && b.start < aEnd { found.append((a, b)) }
          }
        }
        return found
      }
    }

    @Test func aDeadlineMovedDuringItsOwnFollowUpFiresForItsNewEnd() async throws {
      let database = try await TestServer.freshDatabase("movedown")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "moved while followed up", endsAt: Date().addingTimeInterval(1))
      let runs = Runs()
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "alone", lease: .seconds(3),
        heartbeatInterval: .seconds(1), applicationName: "moved-worker")
      let working = Task {
        try await worker.run { expired in
          try await runs.run(expired, by: "alone") { try await Task.sleep(for: .seconds(2)) }
        }
      }
      #expect(await eventually { !runs.all.isEmpty }, "the first follow-up started")
      let newEnd = Date().addingTimeInterval(2)
      try await store.setEnd(of: id, to: newEnd, now: Date())
      let done = try await eventually(within: .seconds(15)) {
        try await database.integers(
          "SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL AND expired_at >= ends_at"
        ) == [1]
      }
      #expect(done, "expired again at its new end and followed up")
      let movedEnd = try await store.rows().first?.endsAt
      #expect(movedEnd.map { abs($0.timeIntervalSince(newEnd)) < 0.001 } == true)
      #expect(runs.all.contains { abs($0.endsAt.timeIntervalSince(newEnd)) < 0.001 }, "a follow-up ran for the new end")
      working.cancel()
      await store.close()
      await database.drop()
    }

    @Test func twoAttemptsNeverRunAtOnceThroughAnOutage() async throws {
      let database = try await TestServer.freshDatabase("outage")
      let roles = TestRoles(database)
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let grants = PinnedNamesTests.grants("worker")
      let (a, b) = (try await roles.make("lease_a", grants: grants), try await roles.make("lease_b", grants: grants))
      let id = try await store.add(title: "slow follow-up", endsAt: Date().addingTimeInterval(1))
      let runs = Runs()
      let events = Mutex<[String]>([])
      let first = DeadlineExpiryWorker(
        location: a, table: table, name: "a", lease: .seconds(2), heartbeatInterval: .milliseconds(500),
        applicationName: "lease-a")
      let firstTask = Task {
        try await first.run(events: { event in events.withLock { $0.append("\(event)") } }) { expired in
          try await runs.run(expired, by: "a") { try await Task.sleep(for: .seconds(8)) }
        }
      }
      #expect(await eventually { !runs.all.isEmpty }, "worker a runs the follow-up")
      // An outage for worker a alone: its claims connection is cut, and its role may not connect again.
      try await database.executeOnServer("ALTER ROLE \(a.username) CONNECTION LIMIT 0")
      #expect(try await database.terminate(applicationName: "lease-a-claims") == 1)
      let second = DeadlineExpiryWorker(
        location: b, table: table, name: "b", lease: .seconds(2), heartbeatInterval: .milliseconds(500),
        applicationName: "lease-b")
      let secondTask = Task {
        try await second.run { expired in
          try await runs.run(expired, by: "b") { try await Task.sleep(for: .milliseconds(300)) }
        }
      }
      let done = try await eventually(within: .seconds(15)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL") == [1]
      }
      #expect(done, "worker b took the follow-up over once a's lease ended")
      try await database.executeOnServer("ALTER ROLE \(a.username) CONNECTION LIMIT -1")
      #expect(await eventually(within: .seconds(10)) { runs.all.allSatisfy { $0.end != nil } })
      let overlaps = runs.overlaps
      #expect(overlaps.isEmpty, "attempts of row \(id) ran at once: \(overlaps)")
      #expect(runs.all.map(\.worker) == ["a", "b"])
      #expect(
        events.withLock { $0.contains { $0.hasPrefix("followUpAbandoned") && $0.contains("before its lease ends") } },
        "worker a said it gave the follow-up up")
      print("LeaseTests: \(runs.all.map { "\($0.worker) attempt \($0.attempt) \(($0.end ?? .now) - $0.start)" })")
      firstTask.cancel()
      secondTask.cancel()
      await store.close()
      await database.drop()
      await roles.dropAll()
    }

    @Test func recordingAFollowUpChecksItsAttempt() async throws {
      let database = try await TestServer.freshDatabase("attempt")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "taken over", endsAt: Date().addingTimeInterval(-1))
      let connections = (0..<2).map { index in
        ClaimConnection(
          location: database.location, applicationName: "claims-\(index)", timeout: .seconds(5),
          statementTimeout: .seconds(2), clock: nil, logger: .quiet)
      }
      let firstClaim = try await connections[0].claim([id], in: table, by: "first", lease: .seconds(60)).won
      #expect(firstClaim.map(\.attempt) == [1])
      // The first worker's lease ran out (it was stopped, say) and another worker took the row over.
      try await database.execute("UPDATE orders SET lease_until = now() - interval '1 second'")
      let secondClaim = try await connections[1].claim([id], in: table, by: "second", lease: .seconds(60)).won
      #expect(secondClaim.map(\.attempt) == [2])
      // The first worker comes back and records its attempt: it is not the row's follow-up any more.
      #expect(try await connections[0].markFollowedUp(firstClaim, in: table).isEmpty, "not recorded")
      #expect(try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [1])
      #expect(try await database.integers("SELECT count(followed_up_at) FROM orders_attempts") == [0])
      #expect(try await connections[1].markFollowedUp(secondClaim, in: table) == [id])
      #expect(try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [0])
      #expect(
        try await database.integers("SELECT attempt FROM orders_attempts WHERE followed_up_at IS NOT NULL") == [2])
      for connection in connections { await connection.close() }
      await store.close()
      await database.drop()
    }

    /// A table just filled has no statistics until `ANALYZE` sees it; the planner then reckons almost
    /// no row has a null `followed_up_at` (and that the `orders_due` index is nearly empty): a statement
    /// that only joined its rows to the table was planned as a scan of the whole table, and a claim as a
    /// read of the whole index, once per claim batch.
    @Test func aTableNotYetAnalyzedIsReadByKeyNeverScanned() async throws {
      let database = try await TestServer.freshDatabase("unanalyzed")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let count = 20_000
      for statement in [
        "ALTER TABLE orders SET (autovacuum_enabled = false)",
        "ALTER TABLE orders_attempts SET (autovacuum_enabled = false)",
        "INSERT INTO orders (title, ends_at) SELECT 'd' || n, now() - interval '1 s' FROM generate_series(1, \(count)) n",
        """
        INSERT INTO orders_attempts (id, attempt, worker, claimed_at, followed_up_at)
        SELECT -n, 1, 'earlier', now(), now() FROM generate_series(1, \(count)) n
        """,
      ] {
        try await database.execute(statement)
      }
      #expect(
        try await database.integers(
          "SELECT count(*) FROM pg_stat_user_tables WHERE relname LIKE 'orders%' AND last_analyze IS NOT NULL "
            + "OR last_autoanalyze IS NOT NULL") == [0], "not analyzed")
      let first = try #require(try await database.integers("SELECT min(id) FROM orders").first)
      let batch = { (index: Int64) in Array((first + index * 64)..<(first + index * 64 + 64)) }
      let claims = ClaimConnection(
        location: database.location, applicationName: "unanalyzed-claims", timeout: .seconds(60),
        statementTimeout: .seconds(30), clock: nil, logger: .quiet)
      let followed = try await claims.claim(batch(0), in: table, by: "w", lease: .seconds(60)).won
      #expect(followed.count == 64)
      #expect(try await claims.extendLeases(of: followed, in: table, by: .seconds(60)).count == 64)
      #expect(try await claims.markFollowedUp(followed, in: table).count == 64)
      let givenBack = try await claims.claim(batch(1), in: table, by: "w", lease: .seconds(60)).won
      try await claims.giveBack(givenBack, in: table)
      let failed = try await claims.claim(batch(2), in: table, by: "w", lease: .seconds(60), maxAttempts: 1).won
      #expect(givenBack.count == 64 && failed.count == 64)
      for row in failed.prefix(3) {
        let discarded = try await claims.fail(
          row, problem: "no", in: table, baseDelay: .seconds(1), maxDelay: .seconds(1), maxAttempts: 1)
        #expect(discarded == true)
      }
      await claims.close()
      await store.close()
      // A server process reports what it read as it ends.
      #expect(
        try await eventually {
          try await database.integers(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            == [0]
        })
      // Rows read by scans of each table, then entries read from each of their indexes.
      let scanned = try await database.integers(
        """
        SELECT coalesce(seq_tup_read, 0) FROM pg_stat_user_tables WHERE relname IN ('orders', 'orders_attempts')
        UNION ALL
        SELECT coalesce(idx_tup_read, 0) FROM pg_stat_user_indexes WHERE relname IN ('orders', 'orders_attempts')
        """)
      print("LeaseTests: rows or index entries read on a table not yet analyzed: \(scanned)")
      #expect(scanned.count > 2 && scanned.allSatisfy { $0 < Int64(count) }, "rows read: \(scanned)")
      await database.drop()
    }

    @Test func aFailingFollowUpBacksOffEndsDiscardedAndAnOperatorRetriesIt() async throws {
      let database = try await TestServer.freshDatabase("discard")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "always fails", endsAt: Date().addingTimeInterval(0.3))
      let fixed = Mutex(false)
      let events = Mutex<[String]>([])
      struct Failing: Error {}
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "f", failureDelay: .milliseconds(400),
        maxRetryDelay: .milliseconds(1_600), maxAttempts: 4, followUpTimeout: .milliseconds(300),
        sweepInterval: .seconds(1), heartbeatInterval: .seconds(1), applicationName: "discard-worker")
      let task = Task {
        try await worker.run(events: { event in events.withLock { $0.append("\(event)") } }) { expired in
          if fixed.withLock({ $0 }) { return }
          // Attempts 1 and 3 throw; 2 and 4 hang until the timeout cancels them.
          if expired.attempt % 2 == 1 { throw Failing() }
          try await Task.sleep(for: .seconds(60))
        }
      }
      let discarded = try await eventually(within: .seconds(20)) { try await store.discarded().map(\.id) == [id] }
      #expect(discarded, "discarded after its fourth attempt")
      let gaps = try await database.integers(
        """
        SELECT (EXTRACT(EPOCH FROM claimed_at - lag(failed_at) OVER (ORDER BY seq)) * 1000)::int8
        FROM orders_attempts ORDER BY seq OFFSET 1
        """)
      print("LeaseTests: waits between a failure and the next attempt \(gaps) ms")
      #expect(gaps.count == 3, "four attempts, no more")
      #expect(gaps.count == 3 && gaps[0] >= 400 && gaps[1] >= 800 && gaps[2] >= 1_600, "each wait doubles")
      #expect(
        try await database.integers("SELECT count(*) FROM orders_attempts WHERE error LIKE 'timed out%'") == [2],
        "the hung attempts timed out")
      #expect(events.withLock { $0.contains { $0.hasPrefix("discarded") } })
      // Nothing more happens to it until an operator retries it; then it is followed up.
      try await Task.sleep(for: .seconds(2))
      #expect(try await database.integers("SELECT count(*) FROM orders_attempts") == [4])
      fixed.withLock { $0 = true }
      #expect(try await store.retryDiscarded([id, 12_345]) == 1)
      #expect(
        try await eventually {
          try await database.integers("SELECT expiry_attempts FROM orders WHERE followed_up_at IS NOT NULL") == [5]
        }, "attempt 5 ran and was recorded")
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aDrainStopsClaimingLetsFollowUpsFinishAndGivesTheRestBack() async throws {
      let database = try await TestServer.freshDatabase("drain")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let quick = try await store.add(title: "quick", endsAt: Date().addingTimeInterval(0.3))
      let slow = try await store.add(title: "slow", endsAt: Date().addingTimeInterval(0.3))
      let later = try await store.add(title: "later", endsAt: Date().addingTimeInterval(3))
      let runs = Runs()
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "drained", lease: .seconds(30), drainGrace: .seconds(1),
        heartbeatInterval: .seconds(1), applicationName: "drained-worker")
      let task = Task {
        try await worker.run { expired in
          try await runs.run(expired, by: "drained") {
            try await Task.sleep(for: expired.id == quick ? .milliseconds(400) : .seconds(60))
          }
        }
      }
      #expect(await eventually { runs.all.count == 2 }, "both follow-ups started")
      let drainedAt = ContinuousClock.now
      worker.drain()
      try await task.value
      let took = ContinuousClock.now - drainedAt
      print("LeaseTests: a drain with a grace of 1 s took \(took)")
      #expect(took < .seconds(3), "the run returned after the grace")
      #expect(runs.all.allSatisfy { $0.end != nil }, "no follow-up runs after the run returned")
      let state = try await store.rows()
      #expect(state.first { $0.id == quick }?.followedUpAt != nil, "the quick follow-up finished and was recorded")
      let given = try #require(state.first { $0.id == slow })
      #expect(
        given.followedUpAt == nil && given.leaseUntil.map { $0 <= Date().addingTimeInterval(1) } == true,
        "the slow one was given back: its lease ends now, not in 30 s")
      #expect(state.first { $0.id == later }?.expiredAt == nil, "nothing was claimed after the drain began")
      await store.close()
      await database.drop()
    }
  }
}
