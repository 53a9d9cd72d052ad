import PostgresNIO

extension PostgresDeadlines {
  /// Runs `body`, turning any failure into a ``PostgresDeadlineError`` about `action`.
  func run<T>(_ action: String, _ body: () async throws -> T) async throws(PostgresDeadlineError) -> T {
    do {
      return try await body()
    } catch {
      throw .wrapping(error, at: location, doing: action)
    }
  }

  /// Runs a statement whose result is ignored.
  func execute(_ sql: String, _ binds: PostgresBindings, doing action: String) async throws(PostgresDeadlineError) {
    _ = try await run(action) {
      try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }
  }

  /// The single integer a statement returns (a count, a new id).
  func scalar(_ sql: String, _ binds: PostgresBindings) async throws(PostgresDeadlineError) -> Int {
    try await run("reading \(table.name)") {
      var value: Int?
      for try await number in try await connection.queryUnlessClosed(
        PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger
      )
      .decode(Int.self) {
        value = number
      }
      guard let value else { throw PostgresDeadlineError(.server, "\(location) returned no value for: \(sql)") }
      return value
    }
  }

  /// Runs an `UPDATE`/`DELETE … RETURNING <bool>`; the returned flag, or nil when no row matched.
  func update(_ sql: String, _ binds: PostgresBindings, doing action: String) async throws(PostgresDeadlineError)
    -> Bool?
  {
    try await run(action) {
      var flag: Bool?
      for try await value in try await connection.queryUnlessClosed(
        PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger
      )
      .decode(Bool.self) {
        flag = value
      }
      return flag
    }
  }

  /// Whether row `id` exists, and if so whether it is paused and has an `ends_at`.
  func existing(_ id: Int64) async throws(PostgresDeadlineError) -> (isPaused: Bool, hasEnd: Bool)? {
    var binds = PostgresBindings()
    binds.append(id)
    return try await run("reading row \(id)") {
      let query = PostgresQuery(
        unsafeSQL: "SELECT paused_remaining IS NOT NULL, ends_at IS NOT NULL FROM \(table.table) WHERE id = $1",
        binds: binds)
      var found: (Bool, Bool)?
      for try await row in try await connection.queryUnlessClosed(query, logger: logger).decode((Bool, Bool).self) {
        found = row
      }
      return found.map { (isPaused: $0.0, hasEnd: $0.1) }
    }
  }

  /// The error for an id that is not in the table.
  func noRow(_ id: Int64) -> PostgresDeadlineError {
    PostgresDeadlineError(
      .badInput,
      "No row \(id) in \(table.name) at \(location). List the ids with: countdown board --once --rows 100000 --db \(location)"
    )
  }
}
