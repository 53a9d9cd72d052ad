/// A batch of changes to a board's rows: rows inserted or changed, rows deleted, or everything the
/// source holds. The one way rows are put on a board and taken off it.
///
/// A board applies a batch at once (``CountdownBoard/apply(_:asOf:)``), and follows a sequence of them in
/// order (``CountdownBoard/follow(_:isolation:)``). A batch costs the board in proportion to the rows
/// it names, so send what changed, never the whole table for one edit.
///
/// ```swift
/// board.apply(.upserted([BoardRow(id: 7, deadline: .until(newEnd))]))
/// board.apply(.removed([12]))
/// board.apply(.reloaded(everyRow))   // a refresh, or a source that lost track of what changed
/// ```
public enum BoardChange<ID: Hashable & Sendable>: Hashable, Sendable {
  /// Rows deleted and rows inserted or changed, applied together: the deletions first, then the rows
  /// in order (a row listed twice ends up as its later entry). An ID in both lists is deleted and then
  /// added again as a new row.
  case changed(upserted: [BoardRow<ID>], removed: [ID])
  /// Everything the source holds (a refresh, a new page of a paged list): the board ends up with
  /// exactly these rows, in one step. Rows that leave stop and never report their completion; rows that
  /// stay keep their slot bindings and their completion state (a finished row is not reported again
  /// unless its new deadline is later); their countdown, and whether they are paused, come from the
  /// source.
  case reloaded([BoardRow<ID>])

  /// Rows inserted or changed.
  public static func upserted(_ rows: [BoardRow<ID>]) -> Self {
    .changed(upserted: rows, removed: [])
  }

  /// Rows deleted (IDs the board does not hold are ignored).
  public static func removed(_ ids: [ID]) -> Self {
    .changed(upserted: [], removed: ids)
  }

  /// The number of rows the batch names: what applying it costs, in rows.
  public var count: Int {
    switch self {
    case .changed(let upserted, let removed): upserted.count + removed.count
    case .reloaded(let rows): rows.count
    }
  }
}
