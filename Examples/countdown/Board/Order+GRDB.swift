import GRDB

extension ColumnValue {
  /// The value as SQLite stored it.
  init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let integer): self = .integer(integer)
    case .double(let real): self = .real(real)
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(Array(data))
    }
  }
}

extension Order.Columns {
  /// The columns of `row`, a row of `SELECT id, title, window_end, paused_remaining, event_at`; a
  /// missing column reads as NULL.
  init(row: Row) {
    func column(_ name: String) -> ColumnValue { row.hasColumn(name) ? ColumnValue(row[name]) : .null }
    self.init(
      id: column("id"), title: column("title"), windowEnd: column("window_end"),
      pausedRemaining: column("paused_remaining"), eventAt: column("event_at"))
  }
}
