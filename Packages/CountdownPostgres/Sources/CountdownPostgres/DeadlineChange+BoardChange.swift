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
  // Inlinable, so that the board's `apply` is specialized for the caller's board type.
  /// Follows the table of `follower` until the task is cancelled: each change it delivers is applied
  /// (`CountdownBoard.apply(_:)`), one batch at a time, each at once. The follower reads only the
  /// columns a board needs (`id`, `ends_at`, `paused_remaining`), straight into board rows; a row that
  /// cannot be counted to (``DeadlineRow/deadline``) is removed, as ``DeadlineChange/boardChange(total:)``
  /// removes it. A reload (the follower was away longer than the table keeps deleted ids) is gathered
  /// until it has caught up and then replaces the board's rows in one step: rows that stay keep their
  /// slots and their completion state, and the board never shows an empty table meanwhile.
  ///
  /// Rows count to the instant their date has when applied, and follow it when the wall clock changes.
  ///
  /// - Parameter total: The full length of every row, for progress displays.
  /// - Throws: What ``PostgresDeadlineFollower/run(reading:_:)`` throws: a first connection that fails, or an
  ///   error that retrying cannot fix.
  @inlinable
  public func follow(_ follower: PostgresDeadlineFollower, total: Duration? = nil) async throws(PostgresDeadlineError) {
    try await follower.runBoard(total: total) { apply($0) }
  }

  /// Applies one change of a ``PostgresDeadlineFollower`` (see ``follow(_:total:)``).
  public func apply(_ change: DeadlineChange, total: Duration? = nil) {
    if let change = change.boardChange(total: total) { apply(change) }
  }
}

extension PostgresDeadlineFollower {
  /// Follows the table as ``CountdownBoard/follow(_:total:)`` does, handing `apply` each batch.
  @usableFromInline
  func runBoard(total: Duration?, _ apply: (BoardChange<Int64>) -> Void) async throws(PostgresDeadlineError) {
    var batches = FollowedBatches()
    try await run(BoardRows(total: total)) { change in
      if let batch = batches.take(change) { apply(batch) }
    }
  }
}

/// The batches a board that follows a table applies: each change's own, except that the pages of a
/// reload are gathered (``ReloadGatherer``) until it has caught up and then replace the board's rows in
/// one batch.
struct FollowedBatches {
  /// The rows of the reload under way, if one is.
  private var reload = ReloadGatherer<BoardRow<Int64>>()

  /// The batch to apply for `change`, if any.
  mutating func take(_ change: FollowerEvent<BoardPage>) -> BoardChange<Int64>? {
    switch change {
    case .reloading:
      reload.begin()
      return nil
    case .upserted(let page):
      // An invalid row leaves the reload as it leaves the board.
      guard reload.gather(page.rows), reload.gather(removing: page.invalid) else { return page.change }
      return nil
    case .removed(let ids):
      return reload.gather(removing: ids) ? nil : .removed(ids)
    case .caughtUp:
      return reload.finish().map { .reloaded($0) }
    case .interrupted:
      return nil
    }
  }
}
