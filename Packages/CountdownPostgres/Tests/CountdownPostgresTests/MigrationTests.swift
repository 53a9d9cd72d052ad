import Foundation
import PostgresNIO
import Testing

@testable import CountdownPostgres

extension ServerTests {
  /// The schema's version, ordered migrations that wait for their locks only so long, and a `verify`
  /// that compares what the triggers run.
  @Suite("Schema versions and migrations")
  struct MigrationTests {
    @Test func aTableOfVersionOneIsMigratedKeepingItsRows() async throws {
      let database = try await TestServer.freshDatabase("migrate")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let id = try await store.add(title: "kept", endsAt: Date().addingTimeInterval(600))
      await store.close()
      // What version 1 left: no meta table, no columns of version 2, its functions unpinned.
      try await database.execute(session: [
        "DROP TABLE orders_meta", "ALTER TABLE orders DROP COLUMN discarded_at, DROP COLUMN attempt_base",
        """
        CREATE OR REPLACE FUNCTION orders_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.changed_xid := pg_current_xact_id(); RETURN NEW; END $$
        """,
      ])
      let connection = try await database.location.connect()
      defer { connection.closeNow() }
      await #expect(throws: PostgresDeadlineError.self) {
        try await table.verify(on: connection, at: database.location)
      }
      try await table.create(on: connection, at: database.location)
      try await table.verify(on: connection, at: database.location)
      #expect(try await database.integers("SELECT version FROM orders_meta") == [2])
      #expect(try await database.integers("SELECT id FROM orders") == [id], "the rows were kept")
      await database.drop()
    }

    @Test func verifyComparesTheTriggersBodiesAndStateAndCreateRepairsThem() async throws {
      let database = try await TestServer.freshDatabase("repair")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      await store.close()
      let connection = try await database.location.connect()
      defer { connection.closeNow() }
      let channel = try await table.channel(on: connection, at: database.location)
      // A function edited in place (same name, another body), then a disabled trigger.
      for damage in [
        "CREATE OR REPLACE FUNCTION orders_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
        "ALTER TABLE orders DISABLE TRIGGER orders_notify_update",
      ] {
        try await database.execute(damage)
        let problem = await #expect(throws: PostgresDeadlineError.self) {
          try await table.verify(on: connection, at: database.location)
        }
        print("MigrationTests: \(problem?.description ?? "none")")
        #expect(problem?.description.contains(damage.contains("DISABLE") ? "disabled" : "differs") == true)
        try await table.create(on: connection, at: database.location)
        try await table.verify(on: connection, at: database.location)
      }
      #expect(try await table.channel(on: connection, at: database.location) == channel, "the channel stays")
      await database.drop()
    }

    @Test func aMigrationWaitsForItsLocksOnlySoLongAndChangesNothingThen() async throws {
      let database = try await TestServer.freshDatabase("locked")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      await store.close()
      try await database.execute("UPDATE orders_meta SET version = 1")
      // A long transaction that read the table holds a lock every migration statement waits for.
      let reader = try await database.location.connect(applicationName: "long-reader")
      defer { reader.closeNow() }
      try await reader.query("BEGIN", logger: .quiet)
      try await reader.query("SELECT count(*) FROM orders", logger: .quiet)
      let connection = try await database.location.connect()
      defer { connection.closeNow() }
      let started = ContinuousClock.now
      let failure = await #expect(throws: PostgresDeadlineError.self) {
        try await table.create(
          on: connection, at: database.location, logger: .quiet, lockTimeout: .milliseconds(200), tries: 2)
      }
      print("MigrationTests: gave up after \(ContinuousClock.now - started): \(failure?.description ?? "")")
      #expect(failure?.description.contains("not granted") == true)
      #expect(try await database.integers("SELECT version FROM orders_meta") == [1], "nothing changed")
      // Once it gave up, nothing waits behind it: a writer goes ahead.
      try await database.execute("INSERT INTO orders (title, ends_at) VALUES ('written', now())")
      try await reader.query("COMMIT", logger: .quiet)
      try await table.create(on: connection, at: database.location, logger: .quiet, lockTimeout: .seconds(2), tries: 2)
      #expect(try await database.integers("SELECT version FROM orders_meta") == [2])
      await database.drop()
    }
  }
}
