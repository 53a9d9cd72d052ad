import Foundation
import PostgresNIO
import Testing

@testable import CountdownPostgres

extension ServerTests {
  /// Notifications are hints: what they name is checked against the table before a board or a worker
  /// acts on it, so that a role that can only connect (and anyone can send on any channel) changes nothing.
  @Suite("Notifications are hints")
  struct NotificationTrustTests {
    /// Channels an intruder could guess for the table `orders`.
    static let guessableChannels = ["orders_changes", "public.orders_changes", "orders"]

    @Test func aRoleWithOnlyConnectChangesNothingBoardsShowOrWhenRowsExpire() async throws {
      let database = try await TestServer.freshDatabase("intruder")
      let roles = TestRoles(database)
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let due = Date().addingTimeInterval(4)
      let first = try await store.add(title: "one", endsAt: due)
      let second = try await store.add(title: "two", endsAt: due)
      let mirror = Mirror()
      let follower = PostgresDeadlineFollower(
        location: database.location, table: table, heartbeatInterval: .milliseconds(500),
        applicationName: "intruded-follower")
      let following = Task { try await follower.run { mirror.apply($0) } }
      let followUps = ExpiryWorkerTests.FollowUps()
      let worker = DeadlineExpiryWorker(
        location: database.location, table: table, name: "w", lease: .seconds(5), heartbeatInterval: .seconds(1),
        applicationName: "intruded-worker")
      let working = Task { try await worker.run { followUps.record($0, by: "w") } }
      #expect(await eventually { mirror.counts.firstLoads == 1 })

      // A role created with LOGIN and nothing else: it listens where it can guess, and sends forged
      // notifications there: row one deleted, row two followed up and a year away, a watermark from the
      // future.
      let intruder = try await roles.make("intruder")
      var taps: [ChannelTap] = []
      for channel in Self.guessableChannels {
        taps.append(try await ChannelTap.listen(on: channel, at: intruder, probe: intruder))
      }
      for channel in Self.guessableChannels {
        let hex = { (date: String) in "encode(timestamptz_send(\(date)), 'hex')" }
        try await intruder.execute(
          """
          SELECT pg_notify('\(channel)', E'd99999999999.1.0\\n\(first)'),
            pg_notify('\(channel)', 'u99999999999.2.0' || E'\\n' || '\(second),' || \(hex("now() + interval '1 year'"))
              || ',,,' || \(hex("now()")) || ',,' || \(hex("now()")) || ',1,3:two'),
            pg_notify('\(channel)', 'w99999999999')
          """)
      }
      let bothDone = try await eventually(within: .seconds(15)) {
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL") == [2]
      }
      #expect(bothDone, "both rows expired and were followed up")
      #expect(Set(followUps.all.map(\.id)) == [first, second])
      #expect(
        await eventually { mirror.rows[first]?.expiredAt != nil && mirror.rows[second]?.followedUpAt != nil },
        "the board shows both rows as the table has them: \(mirror.rows)")
      #expect(try await eventually { mirror.matches(try await store.rows()) })

      // The forged watermark did not stick: a change made while the follower was away is caught up.
      #expect(try await database.terminate(applicationName: "intruded-follower") == 1)
      let added = try await store.add(title: "while away", endsAt: Date().addingTimeInterval(600))
      #expect(await eventually { mirror.rows[added] != nil }, "a catch-up after the forged watermark reads the change")

      // And the intruder heard nothing of the table's changes on the channels it could guess.
      let forged = ["d99999999999", "u99999999999", "w99999999999", "probe"]  // its own, and its taps' probes
      let overheard = taps.flatMap(\.heard).filter { payload in !forged.contains { payload.hasPrefix($0) } }
      #expect(overheard.isEmpty, "the intruder overheard \(overheard.map { $0.prefix(60) })")
      for tap in taps { tap.stop() }
      following.cancel()
      working.cancel()
      await store.close()
      await database.drop()
      await roles.dropAll()
    }

    @Test func replayedNotificationsAndForeignWatermarksAreIgnored() async throws {
      let database = try await TestServer.freshDatabase("replay")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 1...3 { try await store.add(title: "v0 \(index)", endsAt: Date().addingTimeInterval(600)) }
      let mirror = Mirror()
      let follower = PostgresDeadlineFollower(
        location: database.location, table: table, heartbeatInterval: .milliseconds(400),
        applicationName: "replayed-follower")
      let following = Task { try await follower.run { mirror.apply($0) } }
      #expect(await eventually { mirror.counts.firstLoads == 1 })
      // Someone who can hear the channel keeps what it carries, to send it again later.
      let channel = try await database.location.channel(of: table)
      let tap = try await ChannelTap.listen(on: channel, at: database.location, probe: database.location)
      try await database.execute("UPDATE orders SET title = 'v1' WHERE id = 1")
      try await database.execute("DELETE FROM orders WHERE id = 2")
      let changes = { tap.heard.filter { !$0.hasPrefix("w") } }  // not the followers' heartbeats
      #expect(await eventually { changes().count == 2 })
      let captured = changes()
      try await database.execute("UPDATE orders SET title = 'v2' WHERE id = 1")
      try await database.execute(
        "INSERT INTO orders (id, title, ends_at) VALUES (2, 'back', now() + interval '10 minutes')")
      #expect(await eventually { mirror.rows[1]?.title == "v2" && mirror.rows[2]?.title == "back" })
      // A few heartbeats later, the old notifications come again, with a watermark from the future.
      try await Task.sleep(for: .milliseconds(1_500))
      var binds = PostgresBindings()
      binds.append(channel)
      binds.append(captured)
      try await database.location.execute(
        "SELECT pg_notify($1, payload) FROM unnest($2::text[] || ARRAY['w99999999999']) AS p(payload)", binds)
      // Notifications arrive in order: once an edit made after them shows, they were handled.
      try await database.execute("UPDATE orders SET title = 'after' WHERE id = 3")
      #expect(await eventually { mirror.rows[3]?.title == "after" })
      #expect(
        mirror.rows[1]?.title == "v2",
        "a replayed row did not move the board back: \(String(describing: mirror.rows[1]))")
      #expect(mirror.rows[2]?.title == "back", "a replayed deletion did not remove a row the table has")
      #expect(mirror.regressions.isEmpty)

      #expect(try await database.terminate(applicationName: "replayed-follower") == 1)
      let added = try await store.add(title: "while away", endsAt: Date().addingTimeInterval(600))
      #expect(await eventually { mirror.rows[added] != nil }, "the catch-up started from the follower's own watermark")
      #expect(try await eventually { mirror.matches(try await store.rows()) })
      tap.stop()
      following.cancel()
      await store.close()
      await database.drop()
    }

    @Test func aWatermarkFromTheFutureForcesAReload() async throws {
      let database = try await TestServer.freshDatabase("future")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      for index in 1...5 { try await store.add(title: "row \(index)", endsAt: Date().addingTimeInterval(600)) }
      // A follower whose watermark was taken before a point-in-time restore or a failover to a server
      // whose transaction counter is behind: above every transaction the server has begun.
      let follower = PostgresDeadlineFollower(location: database.location, table: table)
      let connection = try await database.location.connect()
      defer { connection.closeNow() }
      let mirror = Mirror()
      let loaded = try await follower.load(
        WholeRows(), on: connection, after: 1 << 40, announceReload: true, heartbeat: Heartbeat(interval: .seconds(10))
      ) { mirror.apply(DeadlineChange($0)) }
      #expect(loaded.rows == 5, "the whole table was read again")
      #expect(mirror.counts.reloads == 1, "announced as a reload")
      #expect(loaded.watermark < 1 << 40, "the watermark is the server's again")
      await store.close()
      await database.drop()
    }
  }
}
