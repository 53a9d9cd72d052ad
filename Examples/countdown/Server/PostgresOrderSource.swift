import CountdownCommandLine
import CountdownKit
import CountdownPostgres
import Dispatch
import Foundation
import Synchronization

/// The orders of a PostgreSQL table: edits and the rows on screen are queries on one connection; the
/// board's deadlines come from a ``PostgresDeadlineFollower`` on a connection of its own (the whole
/// table in pages, then each change the server pushes), as deadlines without titles.
final class PostgresOrderSource: OrderSource {
  private let store: PostgresDeadlines
  /// The follower of the table, once the board follows it (for the status line).
  private let follower = Mutex<PostgresDeadlineFollower?>(nil)

  init(store: PostgresDeadlines) {
    self.store = store
  }

  var path: String { store.location.description }

  func orders(from id: Int64, limit: Int) throws -> [Order] {
    try blocking { [store] in try await store.rows(from: id, limit: limit) }.map(Order.init)
  }

  func orders(before id: Int64?, limit: Int) throws -> [Order] {
    try blocking { [store] in try await store.rows(before: id, limit: limit) }.map(Order.init)
  }

  func follow(_ deliver: @escaping @Sendable (OrderChange) async -> Void) async throws {
    await deliver(.loading(total: try await store.count(), events: try await store.countWithEvent()))
    let follower = PostgresDeadlineFollower(location: store.location, table: store.table)
    self.follower.withLock { $0 = follower }
    // A reload (the follower was away longer than the log of deletions is kept) is gathered until it
    // has caught up: then its rows replace the board's at once.
    var reload = ReloadGatherer<OrderTimes>()
    var isLoaded = false
    try await follower.run(reading: .deadlines) { change in
      switch change {
      case .upserted(let rows):
        let times = rows.map(OrderTimes.init)
        if !reload.gather(times) { await deliver(.changed(times, removed: [], isFirstLoad: !isLoaded)) }
      case .removed(let ids):
        if !reload.gather(removing: ids) { await deliver(.changed([], removed: ids)) }
      case .reloading:
        reload.begin()
      case .caughtUp(let isFirstLoad, _):
        // The table's id column is a bigint: every row has one.
        if let rows = reload.finish() {
          await deliver(.reloaded(rows))
        } else if isFirstLoad {
          await deliver(.loaded(unreadable: 0))
        } else {
          await deliver(.problem(nil))
        }
        isLoaded = true
      case .interrupted(let error):
        await deliver(.problem(TerminalText.sanitized("\(error.description) Reconnecting…")))
      }
    }
  }

  /// "following", "connecting", or "reconnecting since 12:03:04 (3 attempts): why", once the board
  /// follows the table.
  var connectionStatus: String? {
    switch follower.withLock({ $0 })?.state {
    case .following?: "following"
    case .reconnecting(let since, let reason, let attempts)?:
      "reconnecting since \(since.formatted(date: .omitted, time: .standard))"
        + (attempts > 1 ? " (\(attempts) attempts)" : "") + ": \(TerminalText.sanitized(reason.description))"
    case .starting?: "connecting"
    case .stopped?, nil: nil
    }
  }

  func count() throws -> Int { try blocking { [store] in try await store.count() } }

  func countRunning(endingAfter date: Date) throws -> Int {
    try blocking { [store] in try await store.countRunning(endingAfter: date) }
  }

  func add(title: String, windowEnd: Date, eventAt: Date?) throws -> Int64 {
    try blocking { [store] in try await store.add(title: title, endsAt: windowEnd, eventAt: eventAt) }
  }

  func add(_ orders: [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]) throws {
    let rows = orders.map {
      (title: $0.title, endsAt: $0.windowEnd, pausedRemaining: $0.pausedRemaining, eventAt: $0.eventAt)
    }
    for start in stride(from: 0, to: rows.count, by: 10_000) {
      let chunk = Array(rows[start..<min(start + 10_000, rows.count)])
      try blocking { [store] in try await store.add(chunk) }
    }
  }

  func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool {
    try blocking { [store] in try await store.setEnd(of: id, to: end, now: now) }
  }

  func pause(_ id: Int64, now: Date) throws -> Bool {
    try blocking { [store] in try await store.pause(id, now: now) }
  }

  func resume(_ id: Int64, now: Date) throws -> Bool {
    try blocking { [store] in try await store.resume(id, now: now) }
  }

  func remove(_ id: Int64) throws { try blocking { [store] in try await store.remove(id) } }
}

extension OrderTimes {
  /// The times of a row of the PostgreSQL table (its title is not kept; its deadline is read as
  /// ``Order/window`` is, `Deadline(endsAt:pausedRemaining:)`).
  init(_ row: DeadlineRow) {
    self.init(id: row.id, window: row.deadline, eventAt: row.eventAt)
  }
}

extension Order {
  /// An order from a row of the PostgreSQL table; the title is made safe for a terminal.
  init(_ row: DeadlineRow) {
    self.init(id: row.id, title: row.title, window: row.deadline, eventAt: row.eventAt)
  }
}
