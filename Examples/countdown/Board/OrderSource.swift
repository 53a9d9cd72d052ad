package import Foundation
import Synchronization

/// Where the board's orders live, picked by `--db`: an SQLite file (``OrderStore``, the default) or a
/// PostgreSQL table (`PostgresOrderSource`, in `countdown-pg`: Examples/Package.swift).
///
/// The board reads two things from it: the rows it shows, a screenful at a time by id
/// (``orders(from:limit:)``, titles included), and the source's changes (``changes()``: the first load
/// in pages, then what changed), which go to the engine's boards as deadlines without titles.
package protocol OrderSource: AnyObject, Sendable {
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
  /// What ``follow(_:)`` delivers, as a sequence that runs it while it is iterated (``OrderChanges``).
  func changes() -> OrderChanges { OrderChanges(source: self) }

  /// Order `id`, if it exists.
  func order(_ id: Int64) throws -> Order? {
    try orders(from: id, limit: 1).first { $0.id == id }
  }
}

/// A source's changes (``OrderSource/follow(_:)``), handed over one at a time: the source's `deliver`
/// returns when the consumer asks for the next change, having dealt with this one, as a source that
/// delivers straight to the boards waits for them to apply each change. The source starts with the
/// first request; the sequence ends when the source's `follow` returns or the consumer's task is
/// cancelled, which cancels the source.
struct OrderChanges: AsyncSequence {
  let source: any OrderSource

  func makeAsyncIterator() -> Iterator { Iterator(source: source) }

  struct Iterator: AsyncIteratorProtocol {
    let source: any OrderSource
    /// The change handed over last, until the consumer asks for the next one.
    let handedOver = ContinuationSlot()
    /// The changes delivered, and where the source delivers them, once it has started.
    var delivered: Delivered?

    typealias Delivered = (
      changes: AsyncThrowingStream<OrderChange, any Error>.Iterator,
      to: AsyncThrowingStream<OrderChange, any Error>.Continuation
    )

    mutating func next() async throws -> OrderChange? {
      handedOver.take()?.resume()
      // Checked here too: a source that always has a change ready would never let the stream see it.
      guard !Task.isCancelled else {
        delivered?.to.finish()
        return nil
      }
      if delivered == nil { delivered = start() }
      return try await delivered?.changes.next()
    }

    private func start() -> Delivered {
      let (changes, continuation) = AsyncThrowingStream.makeStream(of: OrderChange.self)
      let (source, handedOver) = (source, handedOver)
      let following = Task {
        do {
          try await source.follow { change in
            await withCheckedContinuation { dealtWith in
              handedOver.lock.withLock { $0 = dealtWith }
              if case .terminated = continuation.yield(change) { handedOver.take()?.resume() }
            }
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in
        following.cancel()
        handedOver.take()?.resume()
      }
      return (changes.makeAsyncIterator(), continuation)
    }
  }
}

/// A continuation to resume once, by whoever takes it first (resumed after the lock).
final class ContinuationSlot: Sendable {
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
    return try ServerSupport.current().open(url: db, create: false)
  }

  /// Creates the orders table (and, for PostgreSQL, its triggers and companions) if missing; returns
  /// a sentence saying where.
  static func initialize(_ db: String?) throws -> String {
    if let db, isServer(db) {
      let source = try ServerSupport.current().open(url: db, create: true)
      return "The orders table, its triggers and companion tables are ready in \(source.path)."
    }
    let store = try OrderStore(path: db ?? DemoOrders.defaultPath())
    return "The orders table is ready in \(store.path)."
  }
}
