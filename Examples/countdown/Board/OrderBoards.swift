import CountdownKit
import Foundation
import Synchronization

/// The orders on the engine's boards: every valid window on ``windows``, every event on ``events``,
/// every window's urgency on ``urgencies`` (a board that keeps every row's value, for the header's counts
/// per phase), and what the status line counts beside them (``BoardTally``). A source's batches are applied here,
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
  /// Every valid window's urgency, kept for every row (not only the rows on screen): its counts per
  /// phase are the status line's "under 30 min" and "under 5 min", read in O(phases).
  let urgencies: CountdownBoard<Int64, PhaseDisplay<Urgency>, ContinuousClock>
  let tally = Mutex(BoardTally())
  /// The highest id put on the boards before the first load (the first screen's): the load's pages hold
  /// no other row the boards already have.
  private let preloaded = Mutex(Int64.min)

  /// The engines that drive the windows and the events. Each board has an engine of its own, because a
  /// board's row index is as long as its engine's rows: events (a third of the orders) on the windows'
  /// engine would cost 8 bytes for every order, at a million.
  let windowEngine = Engine(clock: ContinuousClock())
  let eventEngine = Engine(clock: ContinuousClock())
  /// The engine of ``urgencies``: a row's urgency changes three times in its life, so this engine
  /// wakes up rarely; its own, for the same reason as the events'.
  let urgencyEngine = Engine(clock: ContinuousClock())

  init(locale: Locale) {
    let text = TimeDisplay.text(.coarse, locale: locale)
    windows = windowEngine.board(
      of: Int64.self,
      display: text.combined(with: OrderRow.phases).combined(with: .progress(steps: 4, total: Order.windowLength)))
    events = eventEngine.board(of: Int64.self, display: TimeDisplay.text(.digital, locale: locale))
    urgencies = urgencyEngine.board(of: Int64.self, display: OrderRow.phases, values: .everyRow)
  }

  /// Stops both engines: nothing of the boards calls the view again.
  func shutdown() {
    windowEngine.shutdown()
    eventEngine.shutdown()
    urgencyEngine.shutdown()
  }

  /// Applies a batch of a source to the boards and the tally.
  @discardableResult
  func apply(_ batch: OrderBatch) -> Update {
    switch batch {
    case .loading(let total, let withEvents):
      tally.withLock { $0.total = total }
      // Room for every row at once: a board that grows while a million rows arrive copies its columns
      // several times, and the space of the copies stays with the process.
      windows.reserveCapacity(total)
      urgencies.reserveCapacity(total)
      if let withEvents { events.reserveCapacity(withEvents) }
      return Update()
    case .page(let rows):
      put(rows, removed: [], newAbove: preloaded.withLock { $0 })
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
      let windowRows = rows.compactMap(\.windowRow)
      windows.apply(.reloaded(windowRows))
      urgencies.apply(.reloaded(windowRows))
      events.apply(.reloaded(rows.compactMap(\.eventRow)))
      return Update(isReload: true, problem: .some(nil))
    case .problem(let message):
      return Update(problem: .some(message))
    }
  }

  /// Puts the rows of the first screen, before the first load.
  func putFirstScreen(_ rows: [OrderTimes]) {
    preloaded.withLock { $0 = rows.map(\.id).max() ?? .min }
    put(rows, removed: [])
  }

  /// Puts rows (new or changed) and removes deleted ids: the tally first, so that a row that finishes
  /// as it arrives is already known when its completion comes. Rows with ids above `newAbove` are known
  /// to be new to the boards and the tally: nothing of them to remove or forget.
  func put(_ rows: [OrderTimes], removed: [Int64], newAbove: Int64 = .max) {
    let now = Date()
    tally.withLock { tally in
      for id in removed { tally.forget(id) }
      for row in rows { tally.record(row, at: now, isNew: row.id > newAbove) }
    }
    var windowRows: [BoardRow<Int64>] = []
    var eventRows: [BoardRow<Int64>] = []
    var noWindow = removed
    var noEvent = removed
    windowRows.reserveCapacity(rows.count)
    for row in rows {
      if let window = row.windowRow { windowRows.append(window) } else if row.id <= newAbove { noWindow.append(row.id) }
      if let event = row.eventRow { eventRows.append(event) } else if row.id <= newAbove { noEvent.append(row.id) }
    }
    windows.apply(.changed(upserted: windowRows, removed: noWindow))
    urgencies.apply(.changed(upserted: windowRows, removed: noWindow))
    events.apply(.changed(upserted: eventRows, removed: noEvent))
  }

  /// How many windows have at most 30 minutes left, and how many of them at most 5 (finished ones not
  /// counted): from the urgencies' counts per phase, in O(phases).
  var urgencyCounts: (underHalfHour: Int, underFiveMinutes: Int) {
    var hurry = 0
    var lastMinutes = 0
    for (urgency, count) in urgencies.counts {
      switch urgency {
      case .hurry: hurry += count
      case .lastMinute: lastMinutes += count
      case .plenty, .over: break
      }
    }
    return (hurry + lastMinutes, lastMinutes)
  }

  /// The number of orders: those on the board of windows and the invalid ones.
  var orderCount: Int {
    windows.count + tally.withLock { $0.invalid.count }
  }
}
