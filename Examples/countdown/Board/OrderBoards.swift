import CountdownInput
import CountdownKit
import Foundation
import Synchronization

/// The orders on the engine's boards: every valid window on ``windows``, every event on ``events``,
/// and what the status line counts beside them (``BoardTally``). A source's batches are applied here,
/// off the main actor, through the boards' follow API (`CountdownBoard.apply(_:)`, one batch at a time,
/// each at once); the view reads only the rows it shows.
final class OrderBoards: Sendable {
  typealias WindowDisplay = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, ProgressDisplay
  >
  typealias EventDisplay = MappedDisplay<OffsetDisplay<TimeDisplay>, String>

  /// What applying a batch changed, for the view.
  struct Update: Sendable {
    /// The rows written or deleted (empty for pages of the first load, which the view never shows
    /// before they arrive: its first screen was put on the boards first).
    var touched: [Int64] = []
    /// Every row may have changed (a reload).
    var isReload = false
    /// The source's problem, or nil when it has none (any other batch than `.problem` leaves it).
    var problem: String??
  }

  let windows: CountdownBoard<Int64, WindowDisplay, ContinuousClock>
  let events: CountdownBoard<Int64, EventDisplay, ContinuousClock>
  let tally = Mutex(BoardTally())

  init(engine: Engine, locale: Locale) {
    let text = TimeDisplay.text(.coarse, locale: locale)
    windows = engine.board(
      of: Int64.self,
      display: text.combined(with: OrderRow.phases).combined(with: .progress(steps: 4, total: Order.windowLength)))
    events = engine.board(of: Int64.self, display: TimeDisplay.text(.digital, locale: locale))
  }

  /// Applies a batch of a source to the boards and the tally.
  @discardableResult
  func apply(_ batch: OrderBatch) -> Update {
    switch batch {
    case .loading(let total):
      tally.withLock { $0.total = total }
      return Update()
    case .page(let rows):
      put(rows, removed: [])
      tally.withLock { $0.countLoaded(rows.count) }
      return Update()
    case .loaded(let unreadable):
      tally.withLock { tally in
        tally.unreadable = unreadable
        tally.endLoad()
      }
      return Update()
    case .changed(let rows, let removed, let unreadable):
      put(rows, removed: removed)
      if let unreadable { tally.withLock { $0.unreadable = unreadable } }
      return Update(touched: rows.map(\.id) + removed, problem: .some(nil))
    case .reloaded(let rows, let unreadable):
      let now = Date()
      tally.withLock { tally in
        tally.forgetAll()
        for row in rows { tally.record(row, at: now) }
        tally.unreadable = unreadable
      }
      windows.apply(.reloaded(rows.compactMap(\.windowRow)))
      events.apply(.reloaded(rows.compactMap(\.eventRow)))
      return Update(isReload: true, problem: .some(nil))
    case .problem(let message):
      return Update(problem: .some(message))
    }
  }

  /// Puts rows (new or changed) and removes deleted ids: the tally first, so that a row that finishes
  /// as it arrives is already known when its completion comes.
  func put(_ rows: [OrderTimes], removed: [Int64]) {
    let now = Date()
    tally.withLock { tally in
      for id in removed { tally.forget(id) }
      for row in rows { tally.record(row, at: now) }
    }
    var windowRows: [BoardRow<Int64>] = []
    var eventRows: [BoardRow<Int64>] = []
    var noWindow = removed
    var noEvent = removed
    windowRows.reserveCapacity(rows.count)
    for row in rows {
      if let window = row.windowRow { windowRows.append(window) } else { noWindow.append(row.id) }
      if let event = row.eventRow { eventRows.append(event) } else { noEvent.append(row.id) }
    }
    windows.apply(.changed(upserted: windowRows, removed: noWindow))
    events.apply(.changed(upserted: eventRows, removed: noEvent))
  }

  /// The number of orders: those on the board of windows and the invalid ones.
  var orderCount: Int {
    windows.count + tally.withLock { $0.invalid.count }
  }
}
