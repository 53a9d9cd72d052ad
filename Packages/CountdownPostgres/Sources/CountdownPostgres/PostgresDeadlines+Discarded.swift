import PostgresNIO

// What an operator does about rows whose follow-up failed on every attempt allowed: see them, and give
// them another round.

extension PostgresDeadlines {
  /// Up to `limit` discarded rows (their follow-up failed on every attempt allowed), the most recently
  /// discarded first.
  public func discarded(limit: Int = 100) async throws(PostgresDeadlineError) -> [DeadlineRow] {
    var binds = PostgresBindings()
    binds.append(limit)
    return try await run("reading the discarded rows of \(table.qualifiedName)") {
      var rows: [DeadlineRow] = []
      let query = PostgresQuery(
        unsafeSQL: """
          SELECT \(table.selectList) FROM \(table.table) WHERE discarded_at IS NOT NULL
          ORDER BY discarded_at DESC LIMIT $1
          """, binds: binds)
      for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
        rows.append(try DeadlineRow(row))
      }
      return rows
    }
  }

  /// Gives discarded rows a new round of attempts (as many as the workers allow, counted from now): a
  /// worker claims each at once. Returns how many of `ids` were discarded.
  @discardableResult
  public func retryDiscarded(_ ids: [Int64]) async throws(PostgresDeadlineError) -> Int {
    guard !ids.isEmpty else { return 0 }
    var binds = PostgresBindings()
    binds.append(ids)
    return try await scalar(
      """
      WITH retried AS (
        UPDATE \(table.table) SET discarded_at = NULL, lease_until = NULL, attempt_base = expiry_attempts
        WHERE id = ANY($1::int8[]) AND discarded_at IS NOT NULL RETURNING 1
      )
      SELECT count(*) FROM retried
      """, binds)
  }
}
