import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import CountdownPostgres

extension ServerTests {
  /// The rows a statement's notifications carry equal the rows a query reads, value for value.
  @Suite("Notifications carry the rows")
  struct NotificationPayloadTests {
    /// Listens on the table's channel and keeps what arrives.
    final class Listener: Sendable {
      let payloads = Mutex<[String]>([])
    }

    /// The notifications `edit` causes, parsed (nil for a payload that is none).
    func notifications(
      _ database: TestDatabase, table: DeadlineTable, _ edit: () async throws -> Void
    ) async throws -> [ChangeNotification?] {
      let connection = try await database.location.connect(applicationName: "countdown-tests")
      defer { connection.closeNow() }
      let channel = try await table.channel(on: connection, at: database.location)
      let listener = Listener()
      let task = Task {
        try await connection.listen(on: channel) { notifications in
          for try await notification in notifications { listener.payloads.withLock { $0.append(notification.payload) } }
        }
      }
      // LISTEN has reached the server once a probe comes back.
      #expect(
        try await eventually {
          try await database.execute("SELECT pg_notify('\(channel)', 'probe')")
          return listener.payloads.withLock { $0.contains("probe") }
        })
      listener.payloads.withLock { $0.removeAll() }
      try await edit()
      try await database.execute("SELECT pg_notify('\(channel)', 'end')")
      #expect(await eventually { listener.payloads.withLock { $0.last == "end" } })
      listener.payloads.withLock { $0.removeAll { $0 == "probe" } }
      task.cancel()
      return listener.payloads.withLock { $0.dropLast().map(ChangeNotification.init(payload:)) }
    }

    @Test func rowsDecodeToWhatAQueryReadsAndBulkStatementsSendTheirTransaction() async throws {
      let database = try await TestServer.freshDatabase("payload")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      let titles = ["plain", "a,b:c\nd", "Ünïcødé 🎉 ✓", String(repeating: "é", count: 500), "", "12:34"]
      var carried: [DeadlineRow] = []
      var transactions = 0
      for notification in try await notifications(
        database, table: table,
        {
          for (index, title) in titles.enumerated() {
            try await database.execute(
              "INSERT INTO orders (id, title, ends_at, event_at, paused_remaining) VALUES (\(index + 1), "
                + "'\(title.replacingOccurrences(of: "'", with: "''"))', now() + interval '\(index) hours 0.123457 s', "
                + "\(index == 2 ? "'infinity'" : "NULL"), \(index == 3 ? "0.1" : "NULL"))")
          }
          try await database.execute("INSERT INTO orders (id, title, ends_at) VALUES (7, 'far', '-infinity')")
          try await database.execute(
            "INSERT INTO orders (id, title, ends_at) VALUES (8, '\(String(repeating: "x", count: 2_500))', now())")
          try await database.execute(
            "INSERT INTO orders (id, title, ends_at) SELECT n, 'bulk ' || n, now() FROM generate_series(100, 1100) AS n"
          )
        })
      {
        switch notification {
        case .upserted(_, let rows)?: carried += rows
        case .transaction?: transactions += 1
        default: Issue.record("unexpected notification \(String(describing: notification))")
        }
      }
      let stored = Dictionary(uniqueKeysWithValues: try await store.rows().map { ($0.id, $0) })
      #expect(
        carried.count == 7 + 1_000,
        "each small statement's row travels, not the 2,500-byte one; the first 1,000 rows of the big statement do")
      #expect(transactions == 2, "the long row and the 1,001-row statement send their transaction's id")
      for row in carried {
        #expect(stored[row.id] == row, "row \(row.id) read from its notification equals the row a query reads")
      }
      await store.close()
      await database.drop()
    }

    @Test func eachStateOfARowInOneTransactionArrivesInOrder() async throws {
      let database = try await TestServer.freshDatabase("dedupe")
      let table = try DeadlineTable(name: "orders")
      let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
      try await database.execute("INSERT INTO orders (id, title, ends_at) VALUES (1, 'v1', '2030-01-01')")
      let received = try await notifications(database, table: table) {
        // PostgreSQL delivers one of identical payloads sent in one transaction: the third state equals
        // the first, and must still arrive after the second.
        try await database.execute(
          """
          DO $$ BEGIN
            UPDATE orders SET title = 'v1' WHERE id = 1;
            UPDATE orders SET title = 'v2' WHERE id = 1;
            UPDATE orders SET title = 'v1' WHERE id = 1;
            DELETE FROM orders WHERE id = 1;
          END $$
          """)
      }
      var sequence: [String] = []
      for notification in received {
        switch notification {
        case .upserted(_, let rows)?: sequence += rows.map(\.title)
        case .removed(_, let ids)?: sequence += ids.map { "-\($0)" }
        default: Issue.record("unexpected notification \(String(describing: notification))")
        }
      }
      #expect(sequence == ["v1", "v2", "v1", "-1"])
      await store.close()
      await database.drop()
    }

    @Test func malformedPayloadsAreReadByTransactionOrIgnored() {
      #expect(ChangeNotification(payload: "u12.1.0\n5,zz") == .transaction(12), "a row that cannot be read")
      #expect(ChangeNotification(payload: "d12.1.0\n5\nx") == .transaction(12))
      #expect(ChangeNotification(payload: "u12.1.0\n5,,,,,,,,0,9:short") == .transaction(12), "a title cut short")
      #expect(ChangeNotification(payload: "w7") == .marker(7, nonce: nil))
      #expect(ChangeNotification(payload: "w7.42") == .marker(7, nonce: 42))
      #expect(ChangeNotification(payload: "w7.") == nil && ChangeNotification(payload: "w7.4x") == nil)
      #expect(ChangeNotification(payload: "42") == .transaction(42))
      for foreign in ["", "hello", "u", "u1", "w", "4 2", "๓", "99999999999999999999999"] {
        #expect(ChangeNotification(payload: foreign) == nil, "\(foreign)")
      }
      #expect(
        ChangeNotification(payload: "u3.1.0\n-9,,,,,,,,2,2:ab")
          == .upserted(transaction: 3, rows: [DeadlineRow(id: -9, title: "ab", endsAt: nil, expiryAttempts: 2)]))
    }
  }
}
