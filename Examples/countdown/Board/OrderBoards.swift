import CountdownKit
import Foundation
import Synchronization

/// The orders on the engine's boards: every valid window on ``windows``, every event on ``events``,
/// and what the status line counts beside them (``BoardTally``, and the windows under 30 and 5 minutes,
/// ``WindowCounts``). A source's changes are followed here, off the main actor (``follow(_:updated:)``:
/// the board of windows through `CountdownBoard.follow(_:)`, one batch at a time, each at once); the view
/// reads only the rows it shows.
final class OrderBoards: Sendable {
  typealias WindowDisplay = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, ProgressDisplay
  >
  typealias EventDisplay = MappedDisplay<OffsetDisplay<TimeDisplay>, String>

  /// What a change touched, for the view.
  struct Update: Sendable {
    /// The rows written or deleted (empty for pages of the first load, which the view never shows
    /// before they arrive: its first screen was put on the boards first).
    var touched: [Int64] = []
    /// Every row may have changed (a reload).
    var isReload = false
    /// The source's problem now (`.some(nil)`: none), or nil to leave the one shown as it is.
    var problem: String??
  }

  let windows: CountdownBoard<Int64, WindowDisplay, ContinuousClock>
  let events: CountdownBoard<Int64, EventDisplay, ContinuousClock>
  let tally = Mutex(BoardTally())
  /// The status line's counts of windows under 30 and 5 minutes, over every window. Changed by the
  /// follower only, from what the board of windows holds (read under this lock, taken before the
  /// engine's) just before the board follows the same batch: between two batches they agree; a reader
  /// may see the counts one batch ahead of the board.
  private let windowCounts = Mutex(WindowCounts())
  /// The wake-up set for the next moment the window counts change, and what it calls then.
  private let countsWatch = Mutex(CountsWatch())
  /// The highest id put on the boards before the first load (the first screen's): the load's pages hold
  /// no other row the boards already have.
  private let preloaded = Mutex(Int64.min)

  /// The engines that drive the windows and the events. Each board has an engine of its own, because a
  /// board's row index is as long as its engine's rows: events (a third of the orders) on the windows'
  /// engine would cost 8 bytes for every order, at a million.
  let windowEngine = Engine(clock: ContinuousClock())
  let eventEngine = Engine(clock: ContinuousClock())

  init(locale: Locale) {
    let text = TimeDisplay.text(.coarse, locale: locale)
    windows = windowEngine.board(
      of: Int64.self,
      display: text.combined(with: OrderRow.phases).combined(with: .progress(steps: 4, total: Order.windowLength)))
    events = eventEngine.board(of: Int64.self, display: TimeDisplay.text(.digital, locale: locale))
  }

  /// Stops both engines: nothing of the boards calls the view again.
  func shutdown() {
    windowEngine.shutdown()
    eventEngine.shutdown()
  }

  /// Follows a source's changes until they end (``OrderSource/changes()``): the events, the tally and
  /// the window counts take each change (``take(_:)``), the board of windows follows the batches that
  /// are its own (`CountdownBoard.follow(_:)`), and then `updated` is told what the change touched.
  func follow<Changes: AsyncSequence<OrderChange, any Error>>(
    _ changes: Changes, updated: @escaping @Sendable (Update) async -> Void
  ) async throws {
    try await windows.follow(WindowBatches(changes: changes, boards: self, updated: updated))
  }

  /// Applies one change at once, as ``follow(_:updated:)`` does.
  @discardableResult
  func apply(_ change: OrderChange) -> Update {
    let (batch, update) = take(change)
    if let batch { windows.apply(batch) }
    return update
  }

  /// Takes a change to the board of events, the tally and the window counts: the tally first, so that a
  /// row that finishes as it arrives is already known when its completion comes. Returns the board of
  /// windows' batch, for the caller to apply next. In a page of the first load, rows with ids above the
  /// first screen's are new to the boards and the tally: nothing of them to remove or forget.
  func take(_ change: OrderChange) -> (windows: BoardChange<Int64>?, Update) {
    switch change {
    case .loading(let total, let withEvents):
      tally.withLock { $0.total = total }
      // Room for every row at once: a board that grows while a million rows arrive copies its columns
      // several times, and the space of the copies stays with the process.
      windows.reserveCapacity(total)
      if let withEvents { events.reserveCapacity(withEvents) }
      return (nil, Update())
    case .orders(.changed(let upserted, let removed), let eventChange, let invalid, let isLoading):
      let now = Date()
      let newAbove = isLoading ? preloaded.withLock { $0 } : .max
      tally.withLock { tally in
        for id in removed where id <= newAbove { tally.forget(id) }
        for row in upserted { tally.record(row.deadline, of: row.id, at: now, isNew: row.id > newAbove) }
        for id in invalid { tally.recordInvalid(id) }
        if isLoading { tally.countLoaded(upserted.count + invalid.count) }
      }
      windowCounts.withLock { counts in
        // What the board holds of a row that may be there, before it changes: what the counts counted.
        for id in removed where id <= newAbove { if let old = windows.row(for: id) { counts.remove(old.deadline) } }
        for row in upserted where row.id <= newAbove {
          if let old = windows.row(for: row.id) { counts.remove(old.deadline) }
        }
        for row in upserted { counts.add(row.deadline) }
        watchNextChange(of: counts)
      }
      events.apply(isLoading ? Self.dropping(eventChange, above: newAbove) : eventChange)
      let batch = BoardChange<Int64>.changed(upserted: upserted, removed: removed)
      guard !isLoading else { return (Self.dropping(batch, above: newAbove), Update()) }
      return (batch, Update(touched: upserted.map(\.id) + removed, problem: .some(nil)))
    case .orders(.reloaded(let rows), let eventChange, let invalid, _):
      let now = Date()
      tally.withLock { tally in
        tally.forgetAll()
        for row in rows { tally.record(row.deadline, of: row.id, at: now, isNew: true) }
        for id in invalid { tally.recordInvalid(id) }
        // A reload reads every row: the counts that need them all are known, as after the first load.
        tally.endLoad()
      }
      windowCounts.withLock { counts in
        counts.rebuild(rows.map(\.deadline))
        watchNextChange(of: counts)
      }
      events.apply(eventChange)
      return (.reloaded(rows), Update(isReload: true, problem: .some(nil)))
    case .loaded(let unreadable):
      tally.withLock { tally in
        tally.unreadable = unreadable
        tally.endLoad()
      }
      windowCounts.withLock { counts in
        counts.endLoad()
        watchNextChange(of: counts)
      }
      return (nil, Update())
    case .unreadable(let count):
      tally.withLock { $0.unreadable = count }
      return (nil, Update())
    case .problem(let message):
      return (nil, Update(problem: .some(message)))
    }
  }

  /// `change` without the removals of rows with ids above `id`: rows of the first load that no board
  /// holds yet.
  private static func dropping(_ change: BoardChange<Int64>, above id: Int64) -> BoardChange<Int64> {
    guard case .changed(let upserted, let removed) = change else { return change }
    return .changed(upserted: upserted, removed: removed.filter { $0 <= id })
  }

  /// Puts the rows of the first screen, before the first load.
  func putFirstScreen(_ rows: [OrderTimes]) {
    preloaded.withLock { $0 = rows.map(\.id).max() ?? .min }
    apply(.changed(rows, removed: []))
  }

  /// How many windows have at most 30 minutes left at `now`, and how many of them at most 5 (finished
  /// ones not counted); nil until the first load has read every row.
  func urgencyCounts(at now: Date) -> (underHalfHour: Int, underFiveMinutes: Int)? {
    windowCounts.withLock { $0.counts(at: now) }
  }

  /// Calls `handler` on the main actor whenever the window counts change with time (a window crossing
  /// 30 or 5 minutes left, or ending), from the end of the first load on: one wake-up of the windows'
  /// engine, set for the next such moment.
  func watchCounts(_ handler: @escaping @MainActor @Sendable () -> Void) {
    countsWatch.withLock { $0.handler = handler }
    windowCounts.withLock { watchNextChange(of: $0) }
  }

  /// Sets the wake-up for the next moment `counts` change, unless one as early is set. A wake-up set
  /// for a moment that no longer changes anything (its window moved) just calls the handler once.
  /// Called under the counts' lock.
  private func watchNextChange(of counts: WindowCounts) {
    countsWatch.withLock { watch in
      guard watch.handler != nil, let next = counts.nextChange(after: Date()) else { return }
      if let set = watch.at, set <= next { return }
      guard let instant = try? windowEngine.instant(for: next) else { return }
      watch.wakeUp?.cancel()
      watch.at = next
      watch.wakeUp = windowEngine.add(Countdown(end: instant)) { [weak self] in self?.countsChanged() }
    }
  }

  /// When the wake-up for the next change of the window counts is set for, if it is (for tests).
  var countsWakeUp: Date? { countsWatch.withLock { $0.at } }

  /// The wake-up came (or a test says it did): tells the view, and sets the next one.
  @MainActor
  func countsChanged() {
    let handler = countsWatch.withLock { watch in
      watch.at = nil
      watch.wakeUp = nil
      return watch.handler
    }
    handler?()
    windowCounts.withLock { watchNextChange(of: $0) }
  }

  /// The number of orders: those on the board of windows and the invalid ones.
  var orderCount: Int {
    windows.count + tally.withLock { $0.invalid.count }
  }
}

/// The board of windows' batches of a source's changes, each change taken by the boards
/// (``OrderBoards/take(_:)``) when the board asks for its next batch. The view is told what a change
/// touched once the board has applied its batch (when the board asks for the next one), or at once for
/// a change with no batch: the board never waits for the view to apply a batch.
struct WindowBatches<Changes: AsyncSequence<OrderChange, any Error>>: AsyncSequence {
  let changes: Changes
  let boards: OrderBoards
  let updated: @Sendable (OrderBoards.Update) async -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(changes: changes.makeAsyncIterator(), boards: boards, updated: updated)
  }

  struct Iterator: AsyncIteratorProtocol {
    var changes: Changes.AsyncIterator
    let boards: OrderBoards
    let updated: @Sendable (OrderBoards.Update) async -> Void
    /// What the change of the batch handed over last touched, to tell once the board has applied it.
    var applied: OrderBoards.Update?

    mutating func next() async throws -> BoardChange<Int64>? {
      if let update = applied.take() { await updated(update) }
      while let change = try await changes.next() {
        let (batch, update) = boards.take(change)
        guard let batch else {
          await updated(update)
          continue
        }
        applied = update
        return batch
      }
      return nil
    }
  }
}

/// The wake-up of ``OrderBoards`` for the next change of the window counts.
private struct CountsWatch: Sendable {
  var handler: (@MainActor @Sendable () -> Void)?
  var at: Date?
  var wakeUp: CountdownHandle<ContinuousClock>?
}
