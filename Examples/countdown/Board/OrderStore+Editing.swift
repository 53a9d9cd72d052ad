import CountdownInput
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
      let isPaused = order.pausedRemaining != nil
      let pausedRemaining: Double? = isPaused ? max(end.timeIntervalSince(now), 0) : nil
      try db.execute(
        sql: "UPDATE orders SET window_end = ?, paused_remaining = ? WHERE id = ?",
        arguments: [end, pausedRemaining, id])
      return isPaused
    }
  }

  /// Pauses an order: stores the time left at `now`. Returns false if it was already paused.
  @discardableResult
  func pause(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      if order.isPaused { return false }
      guard case .running(let end) = order.window else {
        throw Failure(description: "Order \(id) cannot be paused: \(order.problem). \(Self.repairHint(id))")
      }
      try db.execute(
        sql: "UPDATE orders SET paused_remaining = ? WHERE id = ?", arguments: [max(end.timeIntervalSince(now), 0), id])
      return true
    }
  }

  /// Resumes an order: its deadline becomes `now` plus the time it had left. Returns false if it was not paused.
  @discardableResult
  func resume(_ id: Int64, now: Date) throws -> Bool {
    try edit(id) { db, order in
      guard order.pausedRemaining != nil else { return false }
      guard case .paused(let remaining) = order.window else {
        throw Failure(description: "Order \(id) cannot be resumed: \(order.problem). \(Self.repairHint(id))")
      }
      try db.execute(
        sql: "UPDATE orders SET window_end = ?, paused_remaining = NULL WHERE id = ?",
        arguments: [now.addingTimeInterval(remaining.timeIntervalValue), id])
      return true
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
    var window: Order.Window
    var pausedRemaining: ColumnValue?

    var isPaused: Bool {
      if case .paused = window { return true }
      return false
    }

    /// Why the window is invalid, or a placeholder.
    var problem: String {
      if case .invalid(let problem) = window { return problem }
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
      let window = Order(columns: columns)?.window ?? .invalid("id is not an integer")
      let paused: ColumnValue? = columns.pausedRemaining == .null ? nil : columns.pausedRemaining
      return try change(db, EditedOrder(window: window, pausedRemaining: paused))
    }
  }
}
