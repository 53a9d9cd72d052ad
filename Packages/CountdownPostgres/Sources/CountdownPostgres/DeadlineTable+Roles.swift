extension DeadlineTable {
  /// What a role does with the table, and the privileges that takes: grant exactly these (as the
  /// table's owner) and nothing more.
  ///
  /// | role | may |
  /// |---|---|
  /// | ``writer`` | read and write the rows (an app server, `countdown board set`); not hear the channel |
  /// | ``board`` | read the rows and the channel (`countdown board`, a ``PostgresDeadlineFollower``) |
  /// | ``worker`` | what a board may, and write the expiry columns and the attempt log (`countdown expire`) |
  ///
  /// None of them may change the schema, the triggers or the channel; only the owner migrates.
  public enum Role: String, Sendable, Hashable, CaseIterable {
    /// Reads and writes rows; may read the schema's version but not the channel.
    case writer
    /// Reads rows, the log of deleted ids and the channel.
    case board
    /// A board that also expires rows: the expiry columns, the attempt log, and pruning the log of
    /// deleted ids and old attempts.
    case worker

    /// The `GRANT` statements that give `role` (a role name, written as is) this role's privileges on
    /// `table`.
    public func grants(on table: DeadlineTable, to role: String) -> [String] {
      let schema = "GRANT USAGE ON SCHEMA \"\(table.schema)\" TO \(role)"
      switch self {
      case .writer:
        return [
          schema,
          "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table.table) TO \(role)",
          "GRANT SELECT (version) ON \(table.meta) TO \(role)",
        ]
      case .board:
        return [
          schema,
          "GRANT SELECT ON \(table.table), \(table.removed), \(table.pruned), \(table.meta) TO \(role)",
        ]
      case .worker:
        return Role.board.grants(on: table, to: role) + [
          "GRANT UPDATE (expired_at, lease_until, followed_up_at, expiry_attempts, discarded_at, changed_xid) "
            + "ON \(table.table) TO \(role)",
          "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table.attempts) TO \(role)",
          "GRANT DELETE ON \(table.removed) TO \(role)",
          "GRANT UPDATE ON \(table.pruned) TO \(role)",
        ]
      }
    }
  }
}
