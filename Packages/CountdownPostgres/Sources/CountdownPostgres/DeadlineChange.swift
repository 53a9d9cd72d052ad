/// What a ``PostgresDeadlineFollower`` tells its consumer, in the order things happened.
public enum DeadlineChange: Sendable, Hashable {
  /// Rows inserted or changed, each in its latest state: a page of the first load, part of a catch-up,
  /// or rows that a transaction wrote. A row never comes back in a state older than one already sent.
  case upserted([DeadlineRow])
  /// Rows deleted.
  case removed([Int64])
  /// The follower reads the whole table again, because it was away longer than the table keeps the ids
  /// of deleted rows (``DeadlineTable/logRetention``), or its first load was cut short: the `upserted`
  /// pages up to the next `caughtUp` hold every row of the table, and a row the consumer holds that is
  /// not among them was deleted.
  case reloading
  /// The consumer now holds the table as it was at a moment after (re)connecting: after the first load
  /// (`isFirstLoad`, the whole table in pages), a reload (after ``reloading``), or a catch-up (only what
  /// changed while away). `rows` is how many rows that load or catch-up read.
  case caughtUp(isFirstLoad: Bool, rows: Int)
  /// The connection was lost or went silent; the follower reconnects by itself and catches up (then
  /// `caughtUp`).
  case interrupted(PostgresDeadlineError)
}
