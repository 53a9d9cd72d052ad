import CountdownCore
import CountdownKit
import Foundation
import GRDB

extension OrderStore {
  /// A new order's columns (for seeding).
  typealias NewOrder = (title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)

  /// Inserts an order and returns its id.
  @discardableResult
  func add(title: String, windowEnd: Date, eventAt: Date? = nil) throws -> Int64 {
    try write { db in
      try db.execute(
        sql: "INSERT INTO orders (title, window_end, event_at) VALUES (?, ?, ?)",
        arguments: [title, windowEnd, eventAt])
      return db.lastInsertedRowID
    }
  }

  /// Inserts many orders in one transaction (for seeding).
  func add(_ orders: [NewOrder]) throws {
    try write { db in try Self.insert(orders, into: db) }
  }

  /// Replaces every order with `orders`, in one transaction: a reader (or a crash) sees the old
  /// board or the new one, never an empty one in between.
  func replaceAll(with orders: [NewOrder]) throws {
    try write { db in
      try db.execute(sql: "DELETE FROM orders")
      try Self.insert(orders, into: db)
    }
  }

  private static func insert(_ orders: [NewOrder], into db: Database) throws {
    let statement = try db.makeStatement(
      sql: "INSERT INTO orders (title, window_end, paused_remaining, event_at) VALUES (?, ?, ?, ?)")
    for order in orders {
      try statement.execute(arguments: [order.title, order.windowEnd, order.pausedRemaining, order.eventAt])
    }
  }

  /// Moves an order's deadline to `end`; a paused order stays paused with the time to `end` left.
  /// Returns whether the order is paused. Repairs an invalid row: its window becomes `end`.
  @discardableResult
  func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool {
    try edit(id) { db, order in
      // An invalid row is repaired as a running one; a paused one keeps its pause (see `stored`).
      let current =
        order.isPaused ? try Self.stored(order.window, now: now) : try Self.checked { try StoredCountdown(end: end) }
      let moved = try Self.checked { try current.retargeted(to: end) }
      try Self.write(moved, windowEnd: end, of: id, into: db)
      return moved.isPaused
    }
  }

  /// Pauses an order: stores the time left at `now`. Returns false if it was already paused.
  @discardableResult
  func pause(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      if order.isPaused { return false }
      guard case .success(.until(let end)) = order.window else {
        throw Failure(description: "Order \(id) cannot be paused: \(order.problem). \(Self.repairHint(id))")
      }
      let paused = try Self.checked { try StoredCountdown(end: end).paused(at: now) }
      try Self.write(paused, windowEnd: end, of: id, into: db)
      return true
    }
  }

  /// Resumes an order: its deadline becomes `now` plus the time it had left. Returns false if it was not paused.
  @discardableResult
  func resume(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      guard order.pausedRemaining != nil else { return false }
      guard case .success(.paused) = order.window else {
        throw Failure(description: "Order \(id) cannot be resumed: \(order.problem). \(Self.repairHint(id))")
      }
      let running = try Self.checked { try Self.stored(order.window, now: now).resumed(at: now) }
      try Self.write(running, windowEnd: nil, of: id, into: db)
      return true
    }
  }

  // MARK: - The stored form

  // Pausing, resuming and moving a deadline are `StoredCountdown`'s wall-clock operations (the same
  // the library documents for surviving a relaunch); the store only maps its two columns to and from
  // that form: `window_end` is a running countdown's end date, `paused_remaining` a paused one's time
  // left (the table keeps no pause date: a paused row is read as paused since `now`, which leaves its
  // time left as it is).

  /// A row's window as a stored countdown.
  private static func stored(_ window: Result<Deadline, InvalidDeadline>, now: Date) throws -> StoredCountdown {
    switch window {
    case .success(.until(let end)): try checked { try StoredCountdown(end: end) }
    case .success(.after(let remaining)): try checked { try StoredCountdown(end: now + remaining.timeIntervalValue) }
    case .success(.paused(let remaining)):
      try checked { try StoredCountdown(state: .paused(remaining: remaining, since: now), total: nil) }
    case .failure(let problem): throw Failure(description: "The order's window cannot be used: \(problem).")
    }
  }

  /// Writes `countdown` to order `id`'s columns. A paused countdown keeps `windowEnd` (nil: leave the
  /// column as it is) and stores its time left, never below zero (the column holds no overtime).
  private static func write(_ countdown: StoredCountdown, windowEnd: Date?, of id: Int64, into db: Database) throws {
    switch countdown.state {
    case .running(let end), .finished(let end):
      try db.execute(
        sql: "UPDATE orders SET window_end = ?, paused_remaining = NULL WHERE id = ?", arguments: [end, id])
    case .paused(let remaining, _):
      let seconds = max(remaining, .zero).timeIntervalValue
      if let windowEnd {
        try db.execute(
          sql: "UPDATE orders SET window_end = ?, paused_remaining = ? WHERE id = ?",
          arguments: [windowEnd, seconds, id])
      } else {
        try db.execute(sql: "UPDATE orders SET paused_remaining = ? WHERE id = ?", arguments: [seconds, id])
      }
    }
  }

  /// Runs a stored-form operation, turning its error (a date out of range) into a ``Failure``.
  private static func checked<T>(_ operation: () throws -> T) throws -> T {
    do {
      return try operation()
    } catch let error as StoredCountdownError {
      throw Failure(description: "The new deadline cannot be stored: \(error)")
    }
  }

  /// Deletes an order (valid or not).
  func remove(_ id: Int64) throws {
    try edit(id) { db, _ in try db.execute(sql: "DELETE FROM orders WHERE id = ?", arguments: [id]) }
  }

  private static func repairHint(_ id: Int64) -> String {
    "Give it a new deadline with: countdown board set \(id) 2h (or remove it: countdown board remove \(id))"
  }

  /// The row an edit works on: its window as the board reads it, and whether `paused_remaining` is set.
  struct EditedOrder {
    var window: Result<Deadline, InvalidDeadline>
    var pausedRemaining: ColumnValue?

    var isPaused: Bool {
      if case .success(.paused) = window { return true }
      return false
    }

    /// Why the window is invalid, or a placeholder.
    var problem: String {
      if case .failure(let problem) = window { return problem.description }
      return "its window cannot be used"
    }
  }

  /// Runs `change` in a write transaction on order `id`, after checking that it exists.
  private func edit<T>(_ id: Int64, _ change: (Database, EditedOrder) throws -> T) throws -> T {
    try write { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT id, title, window_end, paused_remaining, event_at FROM orders WHERE id = ?", arguments: [id])
      else {
        throw Failure(
          description: "No order \(id) in \(path). List the ids with: countdown board --once --rows 100000 --db \(path)"
        )
      }
      let columns = Order.Columns(row: row)
      let window = Order(columns: columns)?.window ?? .failure(.unreadable("id is not an integer"))
      let paused: ColumnValue? = columns.pausedRemaining == .null ? nil : columns.pausedRemaining
      return try change(db, EditedOrder(window: window, pausedRemaining: paused))
    }
  }
}
