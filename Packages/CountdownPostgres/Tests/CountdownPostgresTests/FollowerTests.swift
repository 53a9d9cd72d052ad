import CountdownPostgres
import Foundation
import Testing

extension ServerTests {
  @Suite("A follower of a real table")
  struct FollowerTests {
    /// Starts a follower of `table` into a new mirror; cancel the task to stop it.
    func follow(_ database: TestDatabase, table: DeadlineTable, name: String, pageSize: Int = 10_000)
      -> (Mirror, Task<Void, any Error>)
    {
      let mirror = Mirror()
      let follower = PostgresDeadlineFollower(
        location: database.location, table: table, pageSize: pageSize, heartbeatInterval: .seconds(1),
        applicationName: name)
      let task = Task { try await follower.run { mirror.apply($0) } }
      return (mirror, task)
    }

    @Test func loadsInPagesThenFollowsEveryKindOfEdit() async throws {
      let database = try await TestServer.freshDatabase("load")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let now = Date()
      try await store.add(
        (0..<2_345).map {
          (title: "row \($0)", endsAt: now.addingTimeInterval(Double($0)), pausedRemaining: nil, eventAt: nil)
        })
      let (mirror, task) = follow(database, table: table, name: "load-follower", pageSize: 500)
      #expect(await eventually { mirror.counts.firstLoads == 1 })
      let pages = mirror.events.prefix { if case .upserted = $0 { true } else { false } }
      #expect(pages.count == 5, "2,345 rows in pages of 500")
      #expect(mirror.matches(try await store.rows()))

      let added = try await store.add(title: "new", endsAt: now.addingTimeInterval(600), eventAt: now)
      try await store.setEnd(of: 1, to: now.addingTimeInterval(3_600), now: now)
      try await store.pause(2, now: now)
      try await store.remove(3)
      try await database.execute("UPDATE orders SET title = 'bulk' WHERE id BETWEEN 100 AND 1099")
      try await database.execute("DELETE FROM orders WHERE id BETWEEN 2000 AND 2099")
      let expected = try await store.rows()
      #expect(await eventually { mirror.matches(expected) })
      #expect(mirror.rows[added]?.title == "new")
      #expect(mirror.rows[2]?.pausedRemaining != nil)
      #expect(mirror.rows[3] == nil)

      try await database.execute("TRUNCATE orders")
      #expect(await eventually { mirror.rows.isEmpty }, "a truncate reaches the followers too")
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func catchesUpAfterItsConnectionIsKilled() async throws {
      let database = try await TestServer.freshDatabase("catchup")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let now = Date()
      for index in 0..<50 { try await store.add(title: "v0 \(index)", endsAt: now.addingTimeInterval(60)) }
      let (mirror, task) = follow(database, table: table, name: "catchup-follower")
      #expect(await eventually { mirror.counts.firstLoads == 1 })
      // The first load set the watermark (its snapshot's xmin): cut the connection and edit while it is
      // away. (Markers moving the watermark while connected are exercised by the convergence test.)
      //
      // xmin is the oldest transaction running anywhere in the cluster: a transaction of another test,
      // in another database, that began before our rows were written and was still running when the
      // snapshot was taken holds the watermark back, and that catch-up rightly reads our rows again. So
      // the catch-up is repeated (each one's snapshot is the next watermark) until one reads less than
      // the table: a follower that always read the whole table would fail every time.
      var smallest = Int.max
      for attempt in 1...3 {
        #expect(try await database.terminate(applicationName: "catchup-follower") == 1)
        try await store.remove(Int64(6 + attempt))
        try await store.setEnd(of: Int64(10 + attempt), to: now.addingTimeInterval(120), now: now)
        try await store.add(title: "added while away \(attempt)", endsAt: now)
        #expect(await eventually { mirror.counts.catchUps >= attempt })
        #expect(try await eventually { mirror.matches(try await store.rows()) })
        let catchUps = mirror.events.compactMap { event -> Int? in
          if case .caughtUp(false, let rows) = event { rows } else { nil }
        }
        smallest = min(smallest, catchUps.last ?? .max)
        if smallest < 50 { break }
      }
      #expect(mirror.counts.interruptions >= 1)
      #expect(mirror.counts.firstLoads == 1, "a reconnect catches up instead of reloading")
      #expect(smallest < 50, "a catch-up reads what changed, not the table (read \(smallest) at best)")
      task.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aMissingTableIsAClearError() async throws {
      let database = try await TestServer.freshDatabase("missing")
      let follower = PostgresDeadlineFollower(location: database.location, table: try DeadlineTable(name: "orders"))
      await #expect {
        try await follower.run { _ in }
      } throws: { error in
        guard let error = error as? PostgresDeadlineError else { return false }
        return error.kind == .schemaMissing && error.description.contains("countdown board init --db")
      }
      await database.drop()
    }

    @Test func anUnreachableServerIsAClearError() async throws {
      let location = try PostgresLocation(url: "postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
      await #expect {
        try await PostgresDeadlines.connect(to: location, table: try DeadlineTable())
      } throws: { error in
        guard let error = error as? PostgresDeadlineError else { return false }
        return error.kind == .unreachable
          && error.description.contains("Cannot reach the PostgreSQL server at 127.0.0.1:1")
      }
    }
  }
}
