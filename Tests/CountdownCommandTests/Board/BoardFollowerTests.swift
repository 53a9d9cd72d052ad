import CountdownKit
import Foundation
import GRDB
import Synchronization
import Testing

@testable import CountdownCommandLine

/// Lets a follower poll once each time a test opens it, so that no test waits for a timer.
actor PollGate {
  private var permits = 0
  private var waiter: CheckedContinuation<Void, any Error>?
  private var isClosed = false

  /// Waits until the test opens the gate; throws once it is closed.
  func wait() async throws {
    if isClosed { throw CancellationError() }
    if permits > 0 {
      permits -= 1
      return
    }
    try await withCheckedThrowingContinuation { waiter = $0 }
  }

  /// Lets one poll through.
  func open() {
    if let waiter {
      self.waiter = nil
      waiter.resume()
    } else {
      permits += 1
    }
  }

  /// Ends the polling.
  func close() {
    isClosed = true
    waiter?.resume(throwing: CancellationError())
    waiter = nil
  }
}

/// A change as a line of text, for comparing: the rows it names (the invalid ones among them), in id order.
func summary(_ change: OrderChange) -> String {
  func ids(_ ids: [Int64]) -> String { ids.sorted().map(String.init).joined(separator: ",") }
  switch change {
  case .loading(let total, _): return "loading \(total)"
  case .loaded(let unreadable): return "loaded \(unreadable)"
  case .unreadable(let count): return "unreadable \(count)"
  case .orders(.changed(let upserted, let removed), _, let invalid, let isFirstLoad):
    let rows = ids(upserted.map(\.id) + invalid)
    return isFirstLoad ? "page \(rows)" : "changed \(rows) removed \(ids(removed.filter { !invalid.contains($0) }))"
  case .orders(.reloaded(let rows), _, let invalid, _): return "reloaded \(ids(rows.map(\.id) + invalid))"
  case .problem(let message): return "problem \(message ?? "none")"
  }
}

/// The SQLite follower: the first load in pages, then the change log; a pruned log or none at all
/// makes it read the table again.
@Suite("Board follower on SQLite")
struct BoardFollowerTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appending(path: "countdown-follow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  var db: String { directory.appending(path: "orders.sqlite").path }

  /// A follower of a store with orders 1, 2 and 3, its batches, and the gate of its polls.
  func following(
    onBatch: @escaping @Sendable (OrderChange) -> Void = { _ in }
  ) throws -> (OrderStore, AsyncStream<OrderChange>.AsyncIterator, PollGate, Task<Void, any Error>) {
    let store = try OrderStore(path: db)
    for title in ["a", "b", "c"] { try store.add(title: title, windowEnd: Date().addingTimeInterval(3_600)) }
    let (batches, received) = AsyncStream.makeStream(of: OrderChange.self)
    let gate = PollGate()
    let task = Task {
      try await store.follow({ batch in
        onBatch(batch)
        received.yield(batch)
      }) { try await gate.wait() }
    }
    return (store, batches.makeAsyncIterator(), gate, task)
  }

  /// Runs SQL as another program would.
  /// Writes as another program would: waiting for a lock (GRDB's default fails at once), since the
  /// follower's reader may hold one at that moment (a failure seen under load in full-suite runs).
  func otherProgram(_ sql: String) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    try DatabaseQueue(path: db, configuration: configuration).write { try $0.execute(sql: sql) }
  }

  func next(_ batches: inout AsyncStream<OrderChange>.AsyncIterator) async -> String? {
    await batches.next().map(summary)
  }

  @Test("The first load, then each write by another program: changed rows read as they are now, deletes")
  func loadThenChanges() async throws {
    var (_, batches, gate, task) = try following()
    #expect(await next(&batches) == "loading 3")
    #expect(await next(&batches) == "page 1,2,3")
    #expect(await next(&batches) == "loaded 0")
    try otherProgram(
      """
      UPDATE orders SET paused_remaining = 60 WHERE id = 2;
      DELETE FROM orders WHERE id = 3;
      INSERT INTO orders (id, title, window_end) VALUES (4, 'd', NULL);
      UPDATE orders SET title = 'b again' WHERE id = 2;
      """)
    await gate.open()
    #expect(await next(&batches) == "changed 2,4 removed 3")
    try otherProgram("DELETE FROM orders WHERE id = 4")
    await gate.open()
    #expect(await next(&batches) == "changed  removed 4")
    task.cancel()
    await gate.close()
    _ = try? await task.value
  }

  @Test("An edit made while the first load runs is delivered after it")
  func editDuringTheLoad() async throws {
    let path = db
    var (_, batches, gate, task) = try following { batch in
      // Another program writes while the board applies the first page.
      guard summary(batch) == "page 1,2,3" else { return }
      var configuration = Configuration()
      configuration.busyMode = .timeout(5)
      try? DatabaseQueue(path: path, configuration: configuration).write { db in
        try db.execute(sql: "UPDATE orders SET window_end = NULL WHERE id = 1")
        try db.execute(sql: "INSERT INTO orders (id, title, window_end) VALUES (99, 'late', '2030-01-01 00:00:00')")
      }
    }
    #expect(await next(&batches) == "loading 3")
    #expect(await next(&batches) == "page 1,2,3")
    #expect(await next(&batches) == "loaded 0")
    await gate.open()
    let changed = await batches.next()
    #expect(changed.map(summary) == "changed 1,99 removed ")
    if case .orders(_, _, let invalid, _)? = changed {
      #expect(invalid == [1], "read as it is now: its window_end is NULL")
    }
    task.cancel()
    await gate.close()
    _ = try? await task.value
  }

  @Test("A log pruned past what the board read makes it read the table again, then follow from there")
  func prunedLog() async throws {
    var (_, batches, gate, task) = try following()
    for _ in 0..<3 { _ = await batches.next() }
    try otherProgram(
      """
      INSERT INTO orders (id, title, window_end) VALUES (5, 'e', '2030-01-01 00:00:00');
      DELETE FROM orders WHERE id = 1;
      DELETE FROM orders_changes;
      UPDATE orders_changes_pruned SET through = (SELECT seq FROM sqlite_sequence WHERE name = 'orders_changes');
      """)
    await gate.open()
    #expect(await next(&batches) == "reloaded 2,3,5")
    #expect(await next(&batches) == "unreadable 0")
    try otherProgram("UPDATE orders SET title = 'c again' WHERE id = 3")
    await gate.open()
    #expect(await next(&batches) == "changed 3 removed ")
    task.cancel()
    await gate.close()
    _ = try? await task.value
  }

  @Test("Without a log, each commit by another program makes the board read the table again")
  func withoutLog() async throws {
    let store = try OrderStore(path: db)
    try store.add(title: "a", windowEnd: Date().addingTimeInterval(3_600))
    try otherProgram(
      """
      DROP TRIGGER orders_logs_insert; DROP TRIGGER orders_logs_update; DROP TRIGGER orders_logs_delete;
      DROP TABLE orders_changes; DROP TABLE orders_changes_pruned;
      """)
    let (stream, received) = AsyncStream.makeStream(of: OrderChange.self)
    let gate = PollGate()
    let task = Task { try await store.follow({ received.yield($0) }) { try await gate.wait() } }
    var batches = stream.makeAsyncIterator()
    #expect(await next(&batches) == "loading 1")
    #expect(await next(&batches) == "page 1")
    #expect(await next(&batches) == "loaded 0")
    try otherProgram("INSERT INTO orders (id, title, window_end) VALUES (2, 'b', '2030-01-01 00:00:00')")
    await gate.open()
    #expect(await next(&batches) == "reloaded 1,2")
    #expect(await next(&batches) == "unreadable 0")
    task.cancel()
    await gate.close()
    _ = try? await task.value
  }
}
