#if COUNTDOWN_POSTGRES
  import ArgumentParser
  import CountdownInput
  import CountdownPostgres
  import Dispatch
  import Foundation
  import Synchronization

  /// PostgreSQL support, compiled in when `countdown` is built from Packages/CountdownPostgres.
  enum ServerSupport {
    /// The table the board's orders live in.
    static let tableName = "orders"

    /// Connects to the orders table at `url` (creating it first with `create`).
    static func open(url: String, create: Bool) throws -> any OrderSource {
      let location = try located(url)
      let table = try DeadlineTable(name: tableName)
      let store = try blocking { try await PostgresDeadlines.connect(to: location, table: table, create: create) }
      return PostgresOrderSource(store: store)
    }

    /// The location `url` names, completed from the environment (`PGPASSWORD`, `~/.pgpass`, …) as libpq
    /// does; what was wrong there but not fatal (a password file others can read) is printed.
    static func located(_ url: String) throws -> PostgresLocation {
      let location = try PostgresLocation(url: url)
      for warning in location.warnings {
        FileHandle.standardError.write(Data("countdown: \(TerminalText.sanitized(warning))\n".utf8))
      }
      return location
    }
  }

  /// The orders of a PostgreSQL table: edits go to the server; the board reads a copy that a
  /// ``PostgresDeadlineFollower`` keeps up to date (loaded once, then changed as the server pushes
  /// changes), so reading the orders costs no query.
  final class PostgresOrderSource: OrderSource {
    private struct Copy {
      var orders: [Int64: Order] = [:]
      var version = 0
      var failure: PostgresDeadlineError?
      var follower: PostgresDeadlineFollower?
      /// The ids delivered since the follower began reloading the table, until it caught up.
      var reloaded: Set<Int64>?
    }

    private let store: PostgresDeadlines
    private let copy = Mutex(Copy())

    init(store: PostgresDeadlines) {
      self.store = store
    }

    var path: String { store.location.description }

    func listing() throws -> OrderStore.Listing {
      try follow()
      return try copy.withLock { copy in
        if let failure = copy.failure { throw failure }
        // The table's id column is a bigint, so every row has one: none is unreadable.
        return OrderStore.Listing(orders: copy.orders.values.sorted { $0.id < $1.id }, unreadable: 0)
      }
    }

    func dataVersion() throws -> Int {
      try follow()
      return try copy.withLock { copy in
        if let failure = copy.failure { throw failure }
        return copy.version
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

    /// Starts following the table the first time the orders are read, and waits for the first load.
    /// "following", or "reconnecting since 12:03:04 (3 attempts): why", once the board follows the table.
    var connectionStatus: String? {
      switch copy.withLock({ $0.follower })?.state {
      case .following?: "following"
      case .reconnecting(let since, let reason, let attempts)?:
        "reconnecting since \(since.formatted(date: .omitted, time: .standard))"
          + (attempts > 1 ? " (\(attempts) attempts)" : "") + ": \(TerminalText.sanitized(reason.description))"
      case .starting?: "connecting"
      case .stopped?, nil: nil
      }
    }

    private func follow() throws {
      let follower = PostgresDeadlineFollower(location: store.location, table: store.table)
      guard
        copy.withLock({ copy in
          guard copy.follower == nil else { return false }
          copy.follower = follower
          return true
        })
      else { return }
      let loaded = Loaded()
      Task.detached { [self] in
        let failure: PostgresDeadlineError
        do throws(PostgresDeadlineError) {
          try await follower.run { change in
            self.apply(change)
            if case .caughtUp = change { loaded.signal() }
          }
          failure = PostgresDeadlineError(.unreachable, "Stopped following \(store.location).")
        } catch {
          failure = error
        }
        copy.withLock { copy in
          copy.failure = failure
          copy.version += 1
        }
        loaded.signal()
      }
      loaded.wait()
      if let failure = copy.withLock({ $0.failure }) { throw failure }
    }

    private func apply(_ change: DeadlineChange) {
      copy.withLock { copy in
        switch change {
        case .upserted(let rows):
          for row in rows {
            copy.orders[row.id] = Order(row)
            copy.reloaded?.insert(row.id)
          }
        case .removed(let ids):
          for id in ids { copy.orders[id] = nil }
        case .reloading:
          copy.reloaded = []
        case .caughtUp:
          // The status line changes (following again); after a reload, the rows not reloaded are gone.
          if let reloaded = copy.reloaded { copy.orders = copy.orders.filter { reloaded.contains($0.key) } }
          copy.reloaded = nil
        case .interrupted:
          break  // the status line changes (reconnecting)
        }
        copy.version += 1
      }
    }
  }

  /// Signals once, from the follower's task, that the first load ended (or failed).
  final class Loaded: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let signalled = Atomic(false)

    func signal() {
      if !signalled.exchange(true, ordering: .relaxed) { semaphore.signal() }
    }

    func wait() { semaphore.wait() }
  }

  extension Order {
    /// An order from a row of the PostgreSQL table; the title is made safe for a terminal.
    init(_ row: DeadlineRow) {
      let window: Window =
        switch row.state {
        case .running(let end): .running(end: end)
        case .paused(let remaining): .paused(remaining: remaining)
        case .invalid(let problem): .invalid(problem)
        }
      self.init(id: row.id, title: TerminalText.sanitized(row.title), window: window, eventAt: row.eventAt)
    }
  }

#endif
