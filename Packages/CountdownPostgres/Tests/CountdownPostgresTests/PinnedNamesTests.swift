import CountdownPostgres
import Foundation
import Testing

extension ServerTests {
  /// Names the triggers use are pinned to the table's schema, whatever the writer's `search_path`; two
  /// schemas with a table of the same name are two tables; three roles work with exactly their grants.
  @Suite("Pinned names and roles")
  struct PinnedNamesTests {
    @Test func aTablePlantedInTheWritersPathReceivesNothing() async throws {
      let database = try await TestServer.freshDatabase("planted")
      let roles = TestRoles(database)
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "one", endsAt: Date().addingTimeInterval(600))
      // Another role plants its own log table where the writer's search_path looks first (CVE-2018-1058).
      try await database.execute(session: [
        "CREATE SCHEMA evil",
        "CREATE TABLE evil.orders_removed (id bigint PRIMARY KEY, removed_xid xid8, removed_at timestamptz)",
        "GRANT USAGE ON SCHEMA evil TO PUBLIC", "GRANT ALL ON evil.orders_removed TO PUBLIC",
      ])
      let writer = try await roles.make(
        "planted_writer",
        grants: [
          "GRANT SELECT, INSERT, UPDATE, DELETE ON orders TO %", "ALTER ROLE % SET search_path = evil, public",
        ])
      try await writer.execute("DELETE FROM orders WHERE id = \(id)")
      #expect(try await database.integers("SELECT count(*) FROM evil.orders_removed") == [0])
      #expect(try await database.integers("SELECT id FROM public.orders_removed") == [id])
      await store.close()
      await database.drop()
      await roles.dropAll()
    }

    @Test func twoSchemasWithTheSameTableNameDoNotInterfere() async throws {
      let database = try await TestServer.freshDatabase("schemas")
      try await database.execute(session: ["CREATE SCHEMA shop_a", "CREATE SCHEMA shop_b"])
      let tables = (
        a: try DeadlineTable(name: "orders", schema: "shop_a"), b: try DeadlineTable(name: "orders", schema: "shop_b")
      )
      let a = try await PostgresDeadlines.connect(to: database.location, table: tables.a, create: true)
      let b = try await PostgresDeadlines.connect(to: database.location, table: tables.b, create: true)
      for index in 1...3 { try await a.add(title: "a\(index)", endsAt: Date().addingTimeInterval(600)) }
      for index in 1...3 { try await b.add(title: "b\(index)", endsAt: Date().addingTimeInterval(600)) }
      let mirrors = (a: Mirror(), b: Mirror())
      let followers = [(tables.a, mirrors.a), (tables.b, mirrors.b)].map { table, mirror in
        let follower = PostgresDeadlineFollower(
          location: database.location, table: table, heartbeatInterval: .milliseconds(500),
          applicationName: "follower-\(table.schema)")
        return Task { try await follower.run { mirror.apply($0) } }
      }
      #expect(await eventually { mirrors.a.counts.firstLoads == 1 && mirrors.b.counts.firstLoads == 1 })
      // Edits to each table, rows with the same ids in both, a deletion in one.
      try await b.setEnd(of: 1, to: Date().addingTimeInterval(60), now: Date())
      try await b.remove(2)
      try await a.add(title: "a4", endsAt: Date().addingTimeInterval(600))
      try await database.execute("UPDATE shop_b.orders SET title = 'bulk b' WHERE id <= 3")
      try await database.execute("UPDATE shop_a.orders SET title = 'last a' WHERE id = 4")
      #expect(try await eventually { mirrors.a.matches(try await a.rows()) && mirrors.a.rows[4]?.title == "last a" })
      #expect(try await eventually { mirrors.b.matches(try await b.rows()) })
      #expect(mirrors.a.rows.values.allSatisfy { $0.title.hasPrefix("a") || $0.title == "last a" })
      #expect(mirrors.a.rows[2] != nil, "a deletion in shop_b did not reach shop_a's board")
      for task in followers { task.cancel() }
      await a.close()
      await b.close()
      await database.drop()
    }

    /// The grants README's PostgreSQL section gives each role.
    static func grants(_ role: String) -> [String] {
      switch role {
      case "writer":
        return DeadlineTable.Role.writer.grants(on: try! DeadlineTable(name: "orders"), to: "%")
      case "board":
        return DeadlineTable.Role.board.grants(on: try! DeadlineTable(name: "orders"), to: "%")
      default:
        return DeadlineTable.Role.worker.grants(on: try! DeadlineTable(name: "orders"), to: "%")
      }
    }

    @Test func aWriterABoardAndAWorkerWorkWithExactlyTheirGrants() async throws {
      let database = try await TestServer.freshDatabase("roles")
      let roles = TestRoles(database)
      let table = try DeadlineTable(name: "orders")
      let owner = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let writer = try await roles.make("writer", grants: Self.grants("writer"))
      let board = try await roles.make("board", grants: Self.grants("board"))
      let worker = try await roles.make("worker", grants: Self.grants("worker"))

      let writes = try await PostgresDeadlines.connect(to: writer, table: table)
      let first = try await writes.add(title: "soon", endsAt: Date().addingTimeInterval(1.5))
      let second = try await writes.add(title: "later", endsAt: Date().addingTimeInterval(600))
      let gone = try await writes.add(title: "gone", endsAt: Date().addingTimeInterval(600))
      try await writes.pause(second, now: Date())
      try await writes.upsert([DeadlineRow(id: 100, title: "given id", endsAt: Date().addingTimeInterval(600))])
      try await writes.remove(gone)

      let mirror = Mirror()
      let follower = PostgresDeadlineFollower(
        location: board, table: table, heartbeatInterval: .milliseconds(500), applicationName: "board-role")
      let following = Task { try await follower.run { mirror.apply($0) } }
      let followUps = ExpiryWorkerTests.FollowUps()
      let expiry = DeadlineExpiryWorker(
        location: worker, table: table, name: "worker-role", lease: .seconds(5), heartbeatInterval: .seconds(1),
        applicationName: "worker-role")
      let working = Task { try await expiry.run { followUps.record($0, by: "worker-role") } }
      #expect(
        try await eventually {
          try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL") == [1]
        }, "the worker expired and followed up the row that came due")
      #expect(followUps.all.map(\.id) == [first])
      #expect(try await eventually { mirror.matches(try await owner.rows()) }, "the board shows the table")
      #expect(mirror.rows[gone] == nil && mirror.rows[100]?.title == "given id")

      // And no more than that: the board cannot write, the writer cannot touch the workers' columns'
      // companions, nobody but the owner can change the schema.
      await #expect(throws: (any Error).self) { try await board.execute("UPDATE orders SET title = 'x'") }
      await #expect(throws: (any Error).self) { try await worker.execute("DELETE FROM orders") }
      await #expect(throws: (any Error).self) { try await writer.execute("DELETE FROM orders_attempts") }
      await #expect(throws: (any Error).self) {
        try await writer.execute("DROP TRIGGER orders_notify_insert ON orders")
      }
      following.cancel()
      working.cancel()
      await writes.close()
      await owner.close()
      await database.drop()
      await roles.dropAll()
    }
  }
}
