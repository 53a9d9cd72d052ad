/// What a source of orders tells the board, in order: the first load in pages, then what changed.
///
/// Sources send the times of the rows that changed (``OrderTimes``: no titles), never the whole table
/// for one edit; ``OrderBoards`` applies each batch to the engine's boards.
enum OrderBatch: Sendable {
  /// The first load starts: this many rows to read, and this many with an event, when the source counts
  /// them (the boards make room for them at once).
  case loading(total: Int, events: Int?)
  /// A page of the first load, in id order.
  case page([OrderTimes])
  /// The first load ended; `unreadable` rows have no integer id (they cannot be shown or edited).
  case loaded(unreadable: Int)
  /// Rows written and ids deleted since the last batch; a new count of rows without an integer id when
  /// one of those was written.
  case changed([OrderTimes], removed: [Int64], unreadable: Int?)
  /// Every row again: the source lost track of what changed (its log was pruned past what the board
  /// had read, or it has no log).
  case reloaded([OrderTimes], unreadable: Int)
  /// The source cannot be read now and keeps trying (a sanitized message), or can again (nil).
  case problem(String?)
}
