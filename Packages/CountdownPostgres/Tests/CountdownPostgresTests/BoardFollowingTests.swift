import CountdownKit
import CountdownPostgres
import Foundation
import Testing

/// A board that follows a real table through CountdownKit's follow API, and the reads a board makes a
/// screenful at a time.
@Suite("A board following a real table", .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct BoardFollowingTests {
  @Test func aBoardFollowsTheTableThroughBoardChanges() async throws {
    let database = try await TestServer.freshDatabase("board")
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    let now = Date()
    try await store.add(
      (1...30).map {
        (
          title: "row \($0)", endsAt: now.addingTimeInterval(Double(600 + $0)), pausedRemaining: $0 == 2 ? 90 : nil,
          eventAt: nil
        )
      })
    try await database.execute("UPDATE orders SET ends_at = NULL WHERE id = 3")
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let follower = PostgresDeadlineFollower(
      location: database.location, table: table, pageSize: 7, heartbeatInterval: .milliseconds(200),
      applicationName: "board-follower")
    let following = Task { try await board.follow(follower, total: .seconds(7_200)) }

    #expect(await eventually { board.count == 29 }, "every valid row, in pages of 7; the invalid one is not held")
    #expect(board.countdown(for: 3) == nil)
    #expect(board.countdown(for: 2)?.isPaused == true)
    #expect(board.countdown(for: 1)?.total == .seconds(7_200))

    try await store.setEnd(of: 1, to: now.addingTimeInterval(60), now: now)
    try await store.remove(4)
    try await database.execute("UPDATE orders SET ends_at = 'infinity' WHERE id = 5")
    try await database.execute("UPDATE orders SET ends_at = now() + interval '1 hour' WHERE id = 3")
    #expect(await eventually { board.count == 28 && board.countdown(for: 3) != nil && board.countdown(for: 5) == nil })
    #expect(await eventually { (board.countdown(for: 1)?.remaining(at: engine.now) ?? .zero) <= .seconds(60) })
    #expect(board.countdown(for: 4) == nil)
    following.cancel()
    _ = try? await following.value

    #expect(try await store.rows(from: 28, limit: 5).map(\.id) == [28, 29, 30])
    #expect(try await store.rows(before: 10, limit: 3).map(\.id) == [7, 8, 9])
    #expect(try await store.rows(before: nil, limit: 2).map(\.id) == [29, 30])
    #expect(try await store.countWithEvent() == 0)
    try await database.execute("UPDATE orders SET event_at = now() WHERE id IN (1, 2)")
    #expect(try await store.countWithEvent() == 2)
    await store.close()
    await database.drop()
  }
}
