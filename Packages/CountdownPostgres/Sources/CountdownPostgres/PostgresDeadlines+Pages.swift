import PostgresNIO

// Rows a screenful at a time, by id (keyset pagination on the primary key: each read costs the rows
// it returns, wherever in the table they are): what a board shows, read with titles, while the
// deadlines of every row come from a follower.

extension PostgresDeadlines {
  /// Up to `limit` rows with ids from `id` on, in id order.
  public func rows(from id: Int64, limit: Int) async throws(PostgresDeadlineError) -> [DeadlineRow] {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(limit)
    return try await select("WHERE id >= $1 ORDER BY id LIMIT $2", binds)
  }

  /// Up to `limit` rows with ids below `id` (any id when nil): the last ones, in id order.
  public func rows(before id: Int64?, limit: Int) async throws(PostgresDeadlineError) -> [DeadlineRow] {
    var binds = PostgresBindings()
    binds.append(id ?? .max)
    binds.append(limit)
    let condition = id == nil ? "id <= $1" : "id < $1"
    return try await select("WHERE \(condition) ORDER BY id DESC LIMIT $2", binds).reversed()
  }

  /// How many rows have an event (`event_at` set): with ``count()``, what a board that is about to load
  /// the table makes room for.
  public func countWithEvent() async throws(PostgresDeadlineError) -> Int {
    try await scalar("SELECT count(event_at) FROM \(table.table)", PostgresBindings())
  }

  /// The rows `clause` selects.
  private func select(_ clause: String, _ binds: PostgresBindings) async throws(PostgresDeadlineError) -> [DeadlineRow]
  {
    try await run("reading \(table.name)") {
      var rows: [DeadlineRow] = []
      let query = PostgresQuery(unsafeSQL: "SELECT \(table.selectList) FROM \(table.table) \(clause)", binds: binds)
      for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
        rows.append(try DeadlineRow(row))
      }
      return rows
    }
  }
}
