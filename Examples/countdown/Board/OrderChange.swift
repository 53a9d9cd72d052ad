package import CountdownKit

/// What a source of orders tells the boards, in order: the first load in pages, then what changed.
///
/// Rows go as the boards take them (`BoardChange`): the orders' windows for the board of windows, their
/// events for the board of events. Sources send the rows that changed (from ``OrderTimes``: no titles),
/// never the whole table for one edit; ``OrderBoards`` follows them.
package enum OrderChange: Sendable {
  /// Orders written or deleted (`.changed`), or every order again (`.reloaded`: the source lost track of
  /// what changed). `windows` removes the orders whose window is invalid, listed in `invalid` (they are
  /// on no board), and `events` the orders without an event. A page of the first load (`isFirstLoad`)
  /// holds rows the source has not sent before.
  case orders(BoardChange<Int64>, events: BoardChange<Int64>, invalid: [Int64], isFirstLoad: Bool)
  /// The first load starts: this many rows to read, and this many with an event, when the source counts
  /// them (the boards make room for them at once).
  case loading(total: Int, events: Int?)
  /// The first load ended; `unreadable` rows have no integer id (they cannot be shown or edited).
  case loaded(unreadable: Int)
  /// A new count of rows without an integer id, after one of those was written.
  case unreadable(Int)
  /// The source cannot be read now and keeps trying (a sanitized message), or can again (nil).
  case problem(String?)

  /// Rows written (`rows`, as they are now) and ids deleted, or a page of the first load.
  package static func changed(_ rows: [OrderTimes], removed: [Int64], isFirstLoad: Bool = false) -> Self {
    var windows: [BoardRow<Int64>] = []
    var events: [BoardRow<Int64>] = []
    var invalid: [Int64] = []
    var noWindow = removed
    var noEvent = removed
    windows.reserveCapacity(rows.count)
    for row in rows {
      if let window = row.windowRow { windows.append(window) } else { invalid.append(row.id) }
      if let event = row.eventRow { events.append(event) } else { noEvent.append(row.id) }
    }
    noWindow += invalid
    return .orders(
      .changed(upserted: windows, removed: noWindow), events: .changed(upserted: events, removed: noEvent),
      invalid: invalid, isFirstLoad: isFirstLoad)
  }

  /// Every row again.
  package static func reloaded(_ rows: [OrderTimes]) -> Self {
    var windows: [BoardRow<Int64>] = []
    var events: [BoardRow<Int64>] = []
    var invalid: [Int64] = []
    windows.reserveCapacity(rows.count)
    for row in rows {
      if let window = row.windowRow { windows.append(window) } else { invalid.append(row.id) }
      if let event = row.eventRow { events.append(event) }
    }
    return .orders(.reloaded(windows), events: .reloaded(events), invalid: invalid, isFirstLoad: false)
  }
}
