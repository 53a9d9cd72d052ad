public import Logging
public import PostgresNIO

extension DeadlineTable {
  /// Deleted ids pruned per statement, so that pruning never holds many locks or a long transaction.
  static let prunedPerStatement = 10_000

  /// Deletes the ids of rows deleted more than `age` ago from `<name>_removed`, and records how far the
  /// log now goes back (in `<name>_pruned`), so that a follower that was away longer reloads the table
  /// instead of missing a deletion. Followers call it as they go, with ``logRetention``; call it yourself
  /// with a shorter age, or from a job, if you like.
  ///
  /// - Returns: How many ids were pruned.
  /// - Throws: ``PostgresDeadlineError`` from the server (a user without `DELETE` on the log, say).
  @discardableResult
  public func pruneRemoved(
    on connection: PostgresConnection, at location: PostgresLocation, olderThan age: Duration,
    logger: Logger = .quiet
  ) async throws(PostgresDeadlineError) -> Int {
    var total = 0
    do {
      while true {
        let pruned = try await pruneRemovedOnce(on: connection, olderThan: age, logger: logger)
        total += pruned
        if pruned < Self.prunedPerStatement { return total }
      }
    } catch {
      throw .wrapping(error, at: location, doing: "pruning \(name)_removed")
    }
  }

  /// One statement of ``pruneRemoved(on:at:olderThan:logger:)``: at most ``prunedPerStatement`` ids, the
  /// oldest first, skipping those another transaction holds; the horizon moves in the same transaction.
  @discardableResult
  func pruneRemovedOnce(on connection: PostgresConnection, olderThan age: Duration, logger: Logger) async throws
    -> Int
  {
    var binds = PostgresBindings()
    binds.append(max(age, .zero).timeInterval)
    let query = PostgresQuery(
      unsafeSQL: """
        WITH doomed AS (
          SELECT id FROM \(removed) WHERE removed_at < now() - make_interval(secs => $1)
          ORDER BY removed_at LIMIT \(Self.prunedPerStatement) FOR UPDATE SKIP LOCKED
        ), gone AS (
          DELETE FROM \(removed) r USING doomed d WHERE r.id = d.id RETURNING r.removed_xid
        ), moved AS (
          UPDATE \(pruned) SET through_xid = greatest(through_xid, (SELECT max(removed_xid) FROM gone))
          WHERE EXISTS (SELECT FROM gone)
        )
        SELECT count(*) FROM gone
        """, binds: binds)
    var count = 0
    for try await value in try await connection.queryUnlessClosed(query, logger: logger).decode(Int.self) {
      count = value
    }
    return count
  }
}
