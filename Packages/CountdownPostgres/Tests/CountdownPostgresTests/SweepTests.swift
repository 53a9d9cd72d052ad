import CountdownPostgres
import PostgresNIO
import Foundation
import Synchronization
import Testing

extension ServerTests {
  /// The table is the truth: workers find due rows by a paced query too, so a row written without the
  /// triggers (replication, a restore, `session_replication_role = replica`) still expires, and an id
  /// that is gone stops being claimed.
  @Suite("The table is the truth")
  struct SweepTests {
    static func worker(_ database: TestDatabase, _ table: DeadlineTable, name: String) -> DeadlineExpiryWorker {
      DeadlineExpiryWorker(
        location: database.location, table: table, name: name, lease: .seconds(5), sweepInterval: .seconds(1),
        heartbeatInterval: .seconds(1), applicationName: name)
    }

    @Test func rowsWrittenWithoutTriggersStillExpireWithinTheSweep() async throws {
      let database = try await TestServer.freshDatabase("quiet")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let moved = try await store.add(title: "moved quietly", endsAt: Date().addingTimeInterval(3_600))
      let followUps = ExpiryWorkerTests.FollowUps()
      let worker = Self.worker(database, table, name: "sweeper")
      let ready = Mutex(false)
      let working = Task {
        try await worker.run(events: { if case .ready = $0 { ready.withLock { $0 = true } } }) {
          followUps.record($0, by: "sweeper")
        }
      }
      #expect(await eventually { ready.withLock { $0 } }, "the worker has loaded the table")
      // As logical replication's apply, pg_restore --disable-triggers or a replica would write them: no
      // trigger runs, no notification is sent.
      try await database.execute(session: [
        "SET session_replication_role = replica",
        "INSERT INTO orders (title, ends_at) VALUES ('inserted quietly', now() + interval '1 second')",
        "UPDATE orders SET ends_at = now() + interval '1 second' WHERE id = \(moved)",
      ])
      let started = ContinuousClock.now
      let done = try await eventually(within: .seconds(20)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL") == [2]
      }
      print("SweepTests: rows written without triggers expired after \(ContinuousClock.now - started)")
      #expect(done, "both rows expired and were followed up")
      #expect(Set(followUps.all.map(\.id)).count == 2)
      #expect(try await database.integers("SELECT count(*) FROM orders WHERE expired_at < ends_at") == [0])
      working.cancel()
      await store.close()
      await database.drop()
    }

    @Test func anIdThatIsGoneStopsBeingClaimed() async throws {
      let database = try await TestServer.freshDatabase("gone")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "deleted quietly", endsAt: Date().addingTimeInterval(1.5))
      let worker = Self.worker(database, table, name: "gone-worker")
      let ready = Mutex(false)
      let working = Task {
        try await worker.run(events: { if case .ready = $0 { ready.withLock { $0 = true } } }) { _ in }
      }
      #expect(await eventually { ready.withLock { $0 } }, "the worker has loaded the table")
      try await database.execute(session: [
        "SET session_replication_role = replica", "DELETE FROM orders WHERE id = \(id)",
      ])
      // The worker's board still counts to the row; watch its claims statement come back and again.
      try await Task.sleep(for: .seconds(2))
      var claims = Set<String>()
      let watchUntil = ContinuousClock.now + .seconds(4)
      while ContinuousClock.now < watchUntil {
        for start in try await database.strings(
          """
          SELECT query_start::text FROM pg_stat_activity
          WHERE application_name = 'gone-worker-claims' AND query LIKE '%claimable%'
          """)
        {
          claims.insert(start)
        }
        try await Task.sleep(for: .milliseconds(10))
      }
      print("SweepTests: \(claims.count) claims of a gone id seen in 4 s")
      #expect(claims.count <= 1, "a gone id is claimed once at most after it is found gone, not every second")
      working.cancel()
      await store.close()
      await database.drop()
    }
  }
}

extension TestDatabase {
  /// Runs `statements` one after the other in one session of the test's database.
  func execute(session statements: [String]) async throws {
    let connection = try await location.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .quiet) }
  }

  /// The strings `sql` returns, one per row.
  func strings(_ sql: String) async throws -> [String] {
    let connection = try await location.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    var values: [String] = []
    for try await value in try await connection.query(.init(unsafeSQL: sql), logger: .quiet).decode(String.self) {
      values.append(value)
    }
    return values
  }
}
