import GRDB

// The rows the board shows, a screenful at a time by id (keyset pagination on the primary key: each
// read costs the rows it returns, wherever in the table they are).

extension OrderStore {
  /// The columns of a row the board shows, title included.
  static let shownColumns = "id, title, window_end, paused_remaining, event_at"

  func orders(from id: Int64, limit: Int) throws -> [Order] {
    try shown(
      "SELECT \(Self.shownColumns) FROM orders WHERE typeof(id) = 'integer' AND id >= ? ORDER BY id LIMIT ?",
      [id, limit])
  }

  func orders(before id: Int64?, limit: Int) throws -> [Order] {
    let rows =
      if let id {
        try shown(
          "SELECT \(Self.shownColumns) FROM orders WHERE typeof(id) = 'integer' AND id < ? ORDER BY id DESC LIMIT ?",
          [id, limit])
      } else {
        try shown(
          "SELECT \(Self.shownColumns) FROM orders WHERE typeof(id) = 'integer' ORDER BY id DESC LIMIT ?", [limit])
      }
    return rows.reversed()
  }

  /// The orders `sql` selects, read defensively (``Order/init(columns:)``).
  private func shown(_ sql: String, _ arguments: StatementArguments) throws -> [Order] {
    try read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { Order(columns: Order.Columns(row: $0)) }
    }
  }
}
