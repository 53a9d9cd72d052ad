import PostgresNIO

extension ClaimConnection {
  /// Rows deleted per retention statement, so that pruning never holds many locks or a long transaction.
  static let prunedPerStatement = 5_000

  /// Deletes, a statement of at most ``prunedPerStatement`` at a time, the attempts claimed more than
  /// `age` ago whose row is followed up or gone (the attempts of a row still waiting, or discarded, are
  /// kept for whoever looks into it). Returns how many were deleted.
  func pruneAttempts(in table: DeadlineTable, olderThan age: Duration) async throws -> Int {
    try await prune(
      """
      WITH doomed AS (
        SELECT a.seq FROM \(table.attempts) a
        WHERE a.claimed_at < now() - make_interval(secs => $1)
          AND NOT EXISTS (SELECT FROM \(table.table) t WHERE t.id = a.id AND t.followed_up_at IS NULL)
        ORDER BY a.claimed_at LIMIT \(Self.prunedPerStatement) FOR UPDATE OF a SKIP LOCKED
      ), gone AS (DELETE FROM \(table.attempts) a USING doomed d WHERE a.seq = d.seq RETURNING 1)
      SELECT count(*) FROM gone
      """, age: age, doing: "pruning \(table.qualifiedName)_attempts")
  }

  /// Deletes, a statement at a time, the rows followed up more than `age` ago (they are deleted as any
  /// row is: boards drop them). Returns how many were deleted.
  func pruneFollowedUp(in table: DeadlineTable, olderThan age: Duration) async throws -> Int {
    try await prune(
      """
      WITH doomed AS (
        SELECT id FROM \(table.table) WHERE followed_up_at < now() - make_interval(secs => $1)
        ORDER BY followed_up_at LIMIT \(Self.prunedPerStatement) FOR UPDATE SKIP LOCKED
      ), gone AS (DELETE FROM \(table.table) t USING doomed d WHERE t.id = d.id RETURNING 1)
      SELECT count(*) FROM gone
      """, age: age, doing: "pruning followed-up rows of \(table.qualifiedName)")
  }

  /// Runs a pruning statement (its `$1` is `age` in seconds) until it deletes less than a full batch.
  private func prune(_ sql: String, age: Duration, doing action: String) async throws -> Int {
    var binds = PostgresBindings()
    binds.append(max(age, .zero).timeInterval)
    let (query, logger) = (PostgresQuery(unsafeSQL: sql, binds: binds), logger)
    var total = 0
    while true {
      let count = try await run(action) { connection in
        var count = 0
        for try await value in try await connection.queryUnlessClosed(query, logger: logger).decode(Int.self) {
          count = value
        }
        return count
      }
      total += count
      if count < Self.prunedPerStatement { return total }
    }
  }
}
