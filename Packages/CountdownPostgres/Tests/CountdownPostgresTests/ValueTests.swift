import CountdownKit
import CountdownTesting
import Foundation
import Testing

@testable import CountdownPostgres

@Suite("URLs, names and rows (no server)")
struct ValueTests {
  @Test func readsAFullURL() throws {
    let location = try PostgresLocation(
      url: "postgres://app:s%40cret@db.internal:6543/shop?sslmode=require&connect_timeout=3", environment: [:])
    #expect(location.host == "db.internal")
    #expect(location.port == 6_543)
    #expect(location.username == "app")
    #expect(location.password == "s@cret")
    #expect(location.database == "shop")
    #expect(location.tls == .require)
    #expect(location.connectTimeout == .seconds(3))
    #expect(location.description == "postgres://app@db.internal:6543/shop", "no password in messages")
  }

  @Test func fillsInLibpqDefaults() throws {
    let location = try PostgresLocation(url: "postgresql://", environment: ["HOME": "/nonexistent"])
    #expect(location.host == "localhost")
    #expect(location.port == 5_432)
    #expect(location.username == NSUserName(), "the operating system's user, as in libpq")
    #expect(location.database == location.username)
    #expect(location.tls == .prefer)
    #expect(location.rootCertificates == nil)
    #expect(location.password == nil)
  }

  @Test(arguments: [
    "mysql://localhost/db", "postgres://host:99999/db", "postgres://host/a/b", "postgres://host/db?sslmode=maybe",
    "postgres://host/db?connect_timeout=๓", "postgres://host/db?connect_timeout=0", "postgres://host/db?color=blue",
    "/tmp/orders.sqlite",
  ])
  func rejectsBadURLsWithAReason(_ url: String) {
    #expect {
      try PostgresLocation(url: url, environment: [:])
    } throws: { error in
      guard let error = error as? PostgresDeadlineError else { return false }
      return error.kind == .badURL && error.description.contains("Expected postgres://user@host")
    }
  }

  @Test func acceptsOnlyPlainTableNames() throws {
    #expect(try DeadlineTable(name: "orders").qualifiedName == "public.orders")
    #expect(try DeadlineTable(name: "orders", schema: "shop").table == "\"shop\".\"orders\"")
    for bad in ["", "Orders", "1orders", "orders; DROP TABLE x", "ordérs", String(repeating: "a", count: 41)] {
      #expect(throws: PostgresDeadlineError.self) { try DeadlineTable(name: bad) }
      #expect(throws: PostgresDeadlineError.self) { try DeadlineTable(name: "orders", schema: bad) }
    }
  }

  @Test func readsTransactionIDsFromASCIIDigitsOnly() {
    #expect(PostgresDeadlineFollower.transactionID("12345") == 12_345)
    #expect(PostgresDeadlineFollower.transactionID("18446744073709551615") == UInt64.max)
    for bad in ["", "18446744073709551616", "-1", "+1", "1 2", "๓", "12a"] {
      #expect(PostgresDeadlineFollower.transactionID(Substring(bad)) == nil, "\(bad)")
    }
  }

  @Test func readsARowsDeadline() {
    let end = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(DeadlineRow(id: 1, endsAt: end).deadline == .success(.until(end)))
    #expect(
      DeadlineRow(id: 1, endsAt: end, pausedRemaining: 90.5).deadline
        == .success(.paused(remaining: .milliseconds(90_500))))
    #expect(DeadlineRow(id: 1, endsAt: nil).deadline == .failure(.noEnd))
    for bad in [-1, .nan, .infinity, 1e12] {
      guard case .failure(.pausedOutOfRange) = DeadlineRow(id: 1, endsAt: end, pausedRemaining: bad).deadline else {
        Issue.record("paused_remaining \(bad) was accepted")
        continue
      }
    }
    let far = Date(timeIntervalSince1970: 1e12)
    #expect(DeadlineRow(id: 1, endsAt: far).deadline == .failure(.endOutOfRange(far)), "a date in the year 33658")
    for (eventAt, kept) in [(end, true), (far, false), (Date(timeIntervalSince1970: .infinity), false)] {
      let row = DeadlineRow(columns: (1, "", end, nil, eventAt, nil, nil, nil, 0, nil))
      #expect(
        (row.eventAt != nil) == kept,
        "event_at \(eventAt.timeIntervalSince1970) read as \(String(describing: row.eventAt))")
    }
  }

  @Test func appliesChangesToABoard() throws {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let now = clock.currentDate
    board.apply(
      .upserted([
        DeadlineRow(id: 1, endsAt: now.addingTimeInterval(60)),
        DeadlineRow(id: 2, endsAt: now, pausedRemaining: 30),
        DeadlineRow(id: 3, endsAt: nil),
      ]), total: .seconds(120))
    #expect(Set(board.ids) == [1, 2])
    #expect(board.countdown(for: 1)?.remaining(at: engine.now) == .seconds(60))
    #expect(board.countdown(for: 1)?.total == .seconds(120))
    #expect(board.countdown(for: 2)?.isPaused == true)
    #expect(board.countdown(for: 2)?.remaining(at: engine.now) == .seconds(30))
    board.apply(.upserted([DeadlineRow(id: 1, endsAt: nil), DeadlineRow(id: 3, endsAt: now.addingTimeInterval(5))]))
    #expect(Set(board.ids) == [2, 3], "a row that became invalid leaves; one that became valid comes")
    board.apply(DeadlineChange.removed([2, 99]))
    #expect(board.ids == [3])
  }
}
