public import CountdownKit

// The follower's changes in the terms of CountdownKit's follow API (`BoardChange`): a board follows a
// PostgreSQL table as it follows any other source of rows.

extension DeadlineRow {
  /// The row as a board row: running rows count to their date, paused rows keep their time left;
  /// nil for an invalid row, which a board does not hold.
  ///
  /// - Parameter total: The full length of every row, for progress displays.
  public func boardRow(total: Duration? = nil) -> BoardRow<Int64>? {
    try? BoardRow(id: id, deadline: deadline.get(), total: total)
  }
}

extension DeadlineChange {
  /// The change as a batch for a board: the rows of an `upserted` change go in (invalid ones are
  /// removed), deleted ids are removed, `reloading` empties the board (the pages that follow fill it
  /// again; ``CountdownBoard/follow(_:total:)`` instead replaces the rows in one step once the reload
  /// has caught up); nil for what is not a change of rows (`caughtUp`, `interrupted`).
  public func boardChange(total: Duration? = nil) -> BoardChange<Int64>? {
    switch self {
    case .upserted(let rows):
      var upserted: [BoardRow<Int64>] = []
      var invalid: [Int64] = []
      upserted.reserveCapacity(rows.count)
      for row in rows {
        if let boardRow = row.boardRow(total: total) { upserted.append(boardRow) } else { invalid.append(row.id) }
      }
      return .changed(upserted: upserted, removed: invalid)
    case .removed(let ids):
      return .removed(ids)
    case .reloading:
      return .reloaded([])
    case .caughtUp, .interrupted:
      return nil
    }
  }
}

extension CountdownBoard where ID == Int64 {
  /// Follows the table of `follower` until the task is cancelled: each change it delivers is applied
  /// (``DeadlineChange/boardChange(total:)``, `CountdownBoard.apply(_:)`), one batch at a time, each
  /// at once. A reload (the follower was away longer than the table keeps deleted ids) is gathered
  /// until it has caught up and then replaces the board's rows in one step: rows that stay keep their
  /// slots and their completion state, and the board never shows an empty table meanwhile.
  ///
  /// Rows count to the instant their date has when applied, and follow it when the wall clock changes.
  ///
  /// - Parameter total: The full length of every row, for progress displays.
  /// - Throws: What ``PostgresDeadlineFollower/run(_:)`` throws: a first connection that fails, or an
  ///   error that retrying cannot fix.
  public func follow(_ follower: PostgresDeadlineFollower, total: Duration? = nil) async throws(PostgresDeadlineError) {
    var batches = FollowedBatches(total: total)
    try await follower.run { change in
      if let batch = batches.take(change) { apply(batch) }
    }
  }

  /// Applies one change of a ``PostgresDeadlineFollower`` (see ``follow(_:total:)``).
  public func apply(_ change: DeadlineChange, total: Duration? = nil) {
    if let change = change.boardChange(total: total) { apply(change) }
  }
}

/// The batches a board that follows a table applies: each change's own, except that the pages of a
/// reload are gathered until it has caught up and then replace the board's rows in one batch.
struct FollowedBatches {
  let total: Duration?
  /// The rows of the reload under way, if one is.
  private var reload: [BoardRow<Int64>]?

  init(total: Duration?) {
    self.total = total
  }

  /// The batch to apply for `change`, if any.
  mutating func take(_ change: DeadlineChange) -> BoardChange<Int64>? {
    switch change {
    case .reloading:
      reload = []
      return nil
    case .upserted(let rows) where reload != nil:
      reload?.append(contentsOf: rows.compactMap { $0.boardRow(total: total) })
      return nil
    case .removed(let ids) where reload != nil:
      let gone = Set(ids)
      reload?.removeAll { gone.contains($0.id) }
      return nil
    case .caughtUp where reload != nil:
      defer { reload = nil }
      return .reloaded(reload ?? [])
    default:
      return change.boardChange(total: total)
    }
  }
}
