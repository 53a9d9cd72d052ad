// swift-format-ignore-file
// The region below is the push-source example of CountdownKit.docc's Lists and Cells article, byte for
// byte: keep the two in step (.ci/check-doc-blocks). It is written against the FirebaseFirestore
// stand-in (Tests/ThirdPartyStandIns: Firebase's signatures, NOT Firebase), and the test runs it.
import CountdownKit
import FirebaseFirestore
import Foundation
import Testing

// MARK: - The example and its test

enum PushSourceExample {
  @MainActor static func follow(db: Firestore, board: CountdownBoard<String, AdaptiveDisplay, ContinuousClock>) async throws {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    let changes = db.collection("orders").snapshots.map { snapshot in
      var upserted: [BoardRow<String>] = []
      var removed: [String] = []
      for change in snapshot.documentChanges {
        let order = change.document
        if change.type != .removed, let end = (order.get("fittingEndsAt") as? Timestamp)?.dateValue() {
          upserted.append(BoardRow(id: order.documentID, deadline: .until(end), total: .seconds(7_200)))
        } else {
          removed.append(order.documentID)   // deleted, or without a date to count to
        }
      }
      return BoardChange.changed(upserted: upserted, removed: removed)
    }

    try await board.follow(changes)   // until the listener fails (thrown here) or the task is cancelled
    // end docs
  }
}

@MainActor @Suite struct PushSourceExampleTests {
  struct Offline: Error {}

  @Test func aBoardFollowsAFirestoreCollectionUntilItFails() async throws {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: String.self, display: .adaptive)
    let db = Firestore()
    let soon = Date().addingTimeInterval(600)
    db._setData(["fittingEndsAt": soon], at: "orders/ada")
    db._setData(["fittingEndsAt": soon], at: "orders/bo")
    db._setData(["note": "no date yet"], at: "orders/cy")
    let following = Task { try await PushSourceExample.follow(db: db, board: board) }

    // The first snapshot holds every document; then each one holds what changed.
    try await waitUntil { Set(board.ids) == ["ada", "bo"] }
    db._setData(["fittingEndsAt": Date().addingTimeInterval(60)], at: "orders/ada")
    db._deleteDocument(at: "orders/bo")
    try await waitUntil { board.ids == ["ada"] }
    #expect(try #require(board.countdown(for: "ada")?.remaining(at: engine.now)) <= .seconds(60))
    #expect(board.countdown(for: "ada")?.total == .seconds(7_200))

    db._fail("orders", with: Offline())
    await #expect(throws: Offline.self) { try await following.value }
    #expect(db._listenerCount == 0, "the listener was removed when the stream ended")
    #expect(board.ids == ["ada"], "the rows applied stay")
  }

  /// Waits, by yielding (never sleeping), until `condition` holds, for at most 30 s in which it kept
  /// not holding (a yield longer than 100 ms counts as 100 ms: other tests held the main actor).
  func waitUntil(_ condition: () -> Bool) async throws {
    var budget = Duration.seconds(30)
    var last = ContinuousClock.now
    while !condition(), budget > .zero {
      await Task.yield()
      let now = ContinuousClock.now
      budget -= min(last.duration(to: now), .milliseconds(100))  // longer: the executor was busy elsewhere
      last = now
    }
    try #require(condition())
  }
}
