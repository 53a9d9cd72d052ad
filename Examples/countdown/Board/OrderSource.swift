import Foundation
import Synchronization

/// Where the board's orders live, picked by `--db`: an SQLite file (``OrderStore``, the default) or a
/// PostgreSQL table (`PostgresOrderSource`, when `countdown` is built with CountdownPostgres).
///
/// The board reads two things from it: the rows it shows, a screenful at a time by id
/// (``orders(from:limit:)``, titles included), and the source's changes (``changes()``: the first load
/// in pages, then what changed), which go to the engine's boards as deadlines without titles.
protocol OrderSource: AnyObject, Sendable {
  /// Where the orders are, for the board's header and for messages (a URL without its password).
  var path: String { get }
  /// Up to `limit` orders with ids from `id` on, in id order.
  func orders(from id: Int64, limit: Int) throws -> [Order]
  /// Up to `limit` orders with ids below `id` (any id when nil): the last ones, in id order.
  func orders(before id: Int64?, limit: Int) throws -> [Order]
  /// How many orders there are.
  func count() throws -> Int
  /// How many orders are running with a window that ends after `date`.
  func countRunning(endingAfter date: Date) throws -> Int
  /// Hands `deliver` the orders, in order: the first load in pages, then every change, until the task is
  /// cancelled. A source that cannot be read for a while says so (``OrderChange/problem(_:)``) and keeps
  /// trying; an error is thrown only when following cannot start.
  func follow(_ deliver: @escaping @Sendable (OrderChange) async -> Void) async throws
  /// Inserts an order and returns its id.
  @discardableResult func add(title: String, windowEnd: Date, eventAt: Date?) throws -> Int64
  /// Inserts many orders at once (for seeding).
  func add(_ orders: [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]) throws
  /// Moves an order's deadline; returns whether the order is paused.
  @discardableResult func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool
  /// Pauses an order; false if it was already paused.
  @discardableResult func pause(_ id: Int64, now: Date) throws -> Bool
  /// Resumes an order; false if it was not paused.
  @discardableResult func resume(_ id: Int64, now: Date) throws -> Bool
  /// Deletes an order.
  func remove(_ id: Int64) throws
  /// How the board is connected to a server (following, or reconnecting since when), for the status
  /// line; nil for a local file. Read at every draw; the source redraws the board when the connection is
  /// lost and once it has caught up (``OrderChange/problem(_:)``).
  var connectionStatus: String? { get }
}

extension OrderSource {
  var connectionStatus: String? { nil }
}

extension OrderSource {
  /// What ``follow(_:)`` delivers, as a sequence that runs it while it is iterated. Each change is handed
  /// over as the consumer takes it: the source reads its next page while the boards apply this one,
  /// never further ahead. Ending the iteration (or cancelling its task) cancels the following.
  func changes() -> some AsyncSequence<OrderChange, any Error> {
    let (changes, continuation) = AsyncThrowingStream.makeStream(of: OrderChange.self)
    let untaken = Untaken()
    let following = Task {
      do {
        try await follow { change in
          await withCheckedContinuation { taken in
            untaken.lock.withLock { $0 = taken }
            if case .terminated = continuation.yield(change) { untaken.take()?.resume() }
          }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in
      following.cancel()
      untaken.take()?.resume()
    }
    return changes.map { change in
      untaken.take()?.resume()
      return change
    }
  }

  /// Order `id`, if it exists.
  func order(_ id: Int64) throws -> Order? {
    try orders(from: id, limit: 1).first { $0.id == id }
  }
}

/// The continuation of the one change ``OrderSource/changes()`` handed over and the consumer has not taken
/// yet, if any: resumed (after the lock) when it is taken, or when the consumer has gone.
private final class Untaken: Sendable {
  let lock = Mutex<CheckedContinuation<Void, Never>?>(nil)

  func take() -> CheckedContinuation<Void, Never>? { lock.withLock { $0.take() } }
}

extension OrderStore: OrderSource {}

/// Picks the source for a `--db` value.
enum OrderSources {
  /// Whether `db` names a PostgreSQL database rather than an SQLite file.
  static func isServer(_ db: String) -> Bool {
    let lowered = db.prefix(13).lowercased()
    return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
  }

  /// The PostgreSQL source for a `postgres://` URL (checking that its tables are there), or nil when
  /// `db` is a file path.
  ///
  /// - Throws: A message that says what to do when the server is unreachable, refuses, or lacks the
  ///   tables, or when this `countdown` was built without PostgreSQL support.
  static func openServer(_ db: String) throws -> (any OrderSource)? {
    guard isServer(db) else { return nil }
    return try ServerSupport.open(url: db, create: false)
  }

  /// Creates the orders table (and, for PostgreSQL, its triggers and companions) if missing; returns
  /// a sentence saying where.
  static func initialize(_ db: String?) throws -> String {
    if let db, isServer(db) {
      let source = try ServerSupport.open(url: db, create: true)
      return "The orders table, its triggers and companion tables are ready in \(source.path)."
    }
    let store = try OrderStore(path: db ?? DemoOrders.defaultPath())
    return "The orders table is ready in \(store.path)."
  }
}
