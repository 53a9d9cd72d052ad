// swift-format-ignore-file
// The region below is the push-source example of CountdownKit.docc's Lists and Cells article, byte for
// byte: keep the two in step (.ci/check-doc-blocks). It is written against a stand-in with the shapes of
// Firebase's Firestore snapshot listeners (declared below: NOT Firebase), and the test runs it.
import CountdownKit
import Foundation
import Synchronization
import Testing

// MARK: - A stand-in shaped like FirebaseFirestore's snapshot listener API (not Firebase)

/// Firestore's timestamp: `dateValue()`.
struct Timestamp: Sendable {
  let date: Date
  func dateValue() -> Date { date }
}

/// What a document change is.
enum DocumentChangeType: Sendable { case added, modified, removed }

/// A document of a query's snapshot: its ID and its fields.
struct QueryDocumentSnapshot: Sendable {
  let documentID: String
  let data: [String: any Sendable]
  func get(_ field: String) -> Any? { data[field] }
}

/// One change in a snapshot.
struct DocumentChange: Sendable {
  let type: DocumentChangeType
  let document: QueryDocumentSnapshot
}

/// A snapshot: the changes since the previous one (the first lists every document as added).
struct QuerySnapshot: Sendable {
  let documentChanges: [DocumentChange]
}

/// Ends a listener.
protocol ListenerRegistration: Sendable {
  func remove()
}

/// A collection whose listener the test drives by hand.
final class CollectionReference: Sendable {
  typealias Listener = @Sendable (QuerySnapshot?, (any Error)?) -> Void
  private let listener = Mutex<Listener?>(nil)

  func addSnapshotListener(_ listener: @escaping Listener) -> any ListenerRegistration {
    self.listener.withLock { $0 = listener }
    return Registration(collection: self)
  }

  /// Sends a snapshot or an error to the listener, as the server would.
  func send(_ snapshot: QuerySnapshot?, _ error: (any Error)? = nil) {
    listener.withLock { $0 }?(snapshot, error)
  }

  var isListening: Bool { listener.withLock { $0 != nil } }

  struct Registration: ListenerRegistration {
    let collection: CollectionReference
    func remove() { collection.listener.withLock { $0 = nil } }
  }
}

/// The database: one collection of orders.
final class Firestore: Sendable {
  let orders = CollectionReference()
  func collection(_ path: String) -> CollectionReference { orders }
}

// MARK: - The example and its test

enum PushSourceExample {
  static func follow(db: Firestore, board: CountdownBoard<String, AdaptiveDisplay, ContinuousClock>) async throws {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    let changes = AsyncThrowingStream<BoardChange<String>, any Error> { continuation in
      let listener = db.collection("orders").addSnapshotListener { snapshot, error in
        guard let snapshot else { return continuation.finish(throwing: error) }
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
        continuation.yield(.changed(upserted: upserted, removed: removed))
      }
      continuation.onTermination = { _ in listener.remove() }
    }

    try await board.follow(changes)   // until the listener fails (thrown here) or the task is cancelled
    // end docs
  }
}

@MainActor @Suite struct PushSourceExampleTests {
  struct Offline: Error {}

  @Test func aBoardFollowsAPushSourceUntilItFails() async throws {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: String.self, display: .adaptive)
    let db = Firestore()
    let following = Task { try await PushSourceExample.follow(db: db, board: board) }
    try await waitUntil { db.orders.isListening }
    let soon = Timestamp(date: Date().addingTimeInterval(600))
    func document(_ id: String, _ fields: [String: any Sendable]) -> QueryDocumentSnapshot {
      QueryDocumentSnapshot(documentID: id, data: fields)
    }

    // The first snapshot holds every document; then each one holds what changed.
    db.orders.send(
      QuerySnapshot(documentChanges: [
        DocumentChange(type: .added, document: document("ada", ["fittingEndsAt": soon])),
        DocumentChange(type: .added, document: document("bo", ["fittingEndsAt": soon])),
        DocumentChange(type: .added, document: document("cy", ["note": "no date yet"])),
      ]))
    try await waitUntil { Set(board.ids) == ["ada", "bo"] }
    db.orders.send(
      QuerySnapshot(documentChanges: [
        DocumentChange(type: .modified, document: document("ada", ["fittingEndsAt": Timestamp(date: Date().addingTimeInterval(60))])),
        DocumentChange(type: .removed, document: document("bo", [:])),
      ]))
    try await waitUntil { board.ids == ["ada"] }
    #expect(try #require(board.countdown(for: "ada")?.remaining(at: engine.now)) <= .seconds(60))
    #expect(board.countdown(for: "ada")?.total == .seconds(7_200))

    db.orders.send(nil, Offline())
    await #expect(throws: Offline.self) { try await following.value }
    #expect(!db.orders.isListening, "the listener was removed when the stream ended")
    #expect(board.ids == ["ada"], "the rows applied stay")
  }

  /// Waits, by yielding (never sleeping), until `condition` holds, for at most 30 s of wall time.
  func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !condition(), ContinuousClock.now < deadline { await Task.yield() }
    try #require(condition())
  }
}
