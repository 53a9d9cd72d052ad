public import Foundation
import Synchronization

/// Many countdowns by ID, for lists: rows come and go with refreshes and pagination, cells bind to
/// the rows they show.
///
/// A row that no cell shows costs its countdown's 24 bytes, its schedule entry and its ID, so a board
/// of a million rows with fifty visible costs fifty live subscribers. Rows finish (and are reported
/// through ``finished`` and ``onFinish(_:)``) whether or not they are on screen.
///
/// ```swift
/// let board = engine.board(of: Order.ID.self, display: .coarse)
/// try board.set(order.id, end: order.fittingEndsAt)
/// // in the cell:
/// slot.bind(to: order.id) { snapshot in label.text = snapshot.value.formatted(.countdown(.coarse)) }
/// ```
///
/// All methods are synchronous and safe from any thread, and each one is atomic: a ``replaceAll(with:)``
/// or an ``upsert(_:)`` of a million rows happens at once for every other thread. Slots are used on the
/// main actor. Slots keep their board alive; when the board goes away (no slot and no other reference
/// left), its rows stop, and none of them reports its completion any more.
public final class CountdownBoard<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>: Sendable
where C.Duration == Duration {
  /// What a bound slot receives.
  public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

  /// The engine that drives the board.
  @usableFromInline let engine: CountdownEngine<C>
  /// What every row shows.
  let display: Display
  /// The board's number among the engine's boards.
  @usableFromInline let number: Int
  /// The display class every row shows.
  let displayClass: UInt32
  let events = FinishEvents<ID>()
  /// Where the changed rows go, for a board that keeps every row's value.
  @usableFromInline let batches: LiveBatches<ID>?
  /// Hands out slot binding tokens.
  let tokens = Atomic<UInt64>(0)

  /// A board on `engine` whose rows show `display` (see ``CountdownEngine/board(of:display:values:)``).
  @inlinable
  convenience init(engine: CountdownEngine<C>, display: Display, values: BoardValues) {
    let plan = DisplayPlan.make(for: display)
    let origin = engine.origin
    let route =
      values == .everyRow
      ? LiveRoute<ID>(batches: LiveBatches()) { ids, entries in
        entries.map { (ids[Int($0.row)], $0) }
      } : nil
    self.init(engine: engine, display: display, live: route) { state in
      state.displayClass(for: display, plan: plan, origin: origin)
    }
  }

  /// A board whose display's class `displayClass` finds (or makes) under the engine's lock, in code
  /// compiled for the display; `live` is the route of its changed rows if it keeps every row's value.
  @usableFromInline
  init(
    engine: CountdownEngine<C>, display: Display, live: LiveRoute<ID>?,
    displayClass: (inout EngineState<C>) -> UInt32
  ) {
    self.engine = engine
    self.display = display
    batches = live?.batches
    let events = events
    (number, self.displayClass) = engine.mutate { state, _ in
      let displayClass = displayClass(&state)
      state.core.classes.retain(displayClass)
      let number = state.boards.firstIndex { $0 == nil } ?? state.boards.count
      precondition(number < Int(UInt16.max), "A CountdownEngine holds at most 65,534 boards at once")
      let rows = BoardRows(events: events, live: live)
      if number == state.boards.count { state.boards.append(rows) } else { state.boards[number] = rows }
      if live != nil { state.core.addLive(owner: UInt16(number + 1), displayClass: displayClass) }
      return (number, displayClass)
    }
  }

  deinit {
    let (number, displayClass) = (number, displayClass)
    engine.mutate { state, _ in
      guard let rows = state.boards[number] as? BoardRows<ID> else { return }
      state.boards[number] = nil
      for row in rows.rows { state.core.remove(row, into: &state.effects) }
      state.core.removeLive(owner: UInt16(number + 1))
      if state.core.classes.release(displayClass) { state.effects.append(.classReleased(displayClass)) }
    }
  }

  // MARK: - Rows

  /// Inserts a row or replaces its countdown; a bound slot shows the change at once.
  ///
  /// A paused `countdown` makes the row paused on its own (it stays paused when the board resumes); a
  /// running one set while the whole board is paused is frozen until the board resumes.
  @inlinable
  public func set(_ id: ID, to countdown: Countdown<C.Instant>) {
    let spec = engine.spec(for: countdown)
    withRows { state, rows, now in place(id, spec, in: &state, &rows, at: now) }
  }

  /// Inserts a row counting to a wall-clock date, or moves an existing row to it.
  ///
  /// The row follows the date when the wall clock changes while it runs. Set while the whole board is
  /// paused, it is frozen with the time left until the date and, like any paused countdown, keeps
  /// that time and counts it down once the board resumes.
  ///
  /// - Throws: `TimelineError` for a date that is not finite or absurdly far away; the row is left as
  ///   it was.
  public func set(_ id: ID, end: Date, total: Duration? = nil) throws {
    let spec = engine.spec(for: Countdown(end: try engine.instant(for: end), total: total), target: end)
    withRows { state, rows, now in place(id, spec, in: &state, &rows, at: now) }
  }

  /// Inserts rows and updates the ones that are there, leaving other rows alone.
  ///
  /// - Complexity: O(n) in `rows`, under one hold of the engine's lock.
  @inlinable
  public func upsert(_ rows: [ID: Countdown<C.Instant>]) {
    withRows { state, board, now in
      reserve(rows.count, in: &state, &board)
      // Into an empty board (a first load), every row is new: no need to look for it.
      let isNew = board.count == 0
      // The index bucket of the row 8 places ahead is fetched before each row is placed: the buckets
      // of a million rows are cache misses, which overlap that way instead of following one another.
      var ahead = rows.index(rows.startIndex, offsetBy: 8, limitedBy: rows.endIndex) ?? rows.endIndex
      for (id, countdown) in rows {
        if ahead != rows.endIndex {
          board.prefetch(rows[ahead].key)
          rows.formIndex(after: &ahead)
        }
        place(id, engine.spec(for: countdown), in: &state, &board, at: now, isNew: isNew)
      }
    }
  }

  /// Removes a row: it stops, and its completion will not fire. A slot bound to it keeps its last
  /// snapshot and renders again if the row comes back.
  @inlinable
  public func remove(_ id: ID) {
    withRows { state, rows, _ in
      guard let row = rows.remove(id) else { return }
      state.core.remove(row, into: &state.effects)
    }
  }

  /// Makes the board hold exactly `rows` (a refresh, or a new page): rows that leave stop, new rows
  /// start, and rows that stay keep their state — bound slots, completion already reported, and a
  /// pause: a paused row stays paused with its frozen time; a running row moves to its new countdown.
  ///
  /// - Complexity: O(n) in the rows before and after, under one hold of the engine's lock: other
  ///   threads see the board before the refresh or after it, never half of it.
  @inlinable
  public func replaceAll(with rows: [ID: Countdown<C.Instant>]) {
    withRows { state, board, now in
      // Rows that leave go first, so that no row number is reused while this refresh runs.
      for row in board.rows where rows[board.ids[row]] == nil {
        guard let row = board.remove(board.ids[row]) else { continue }
        state.core.remove(row, into: &state.effects)
      }
      reserve(rows.count, in: &state, &board)
      for (id, countdown) in rows {
        if let row = board.row(of: id), state.core.isPausedOnItsOwn(row) { continue }
        place(id, engine.spec(for: countdown), in: &state, &board, at: now)
      }
    }
  }

  /// Pauses one row; it stays paused when the whole board resumes.
  public func pause(_ id: ID) {
    withRows { state, rows, now in
      guard let row = rows.row(of: id) else { return }
      state.core.setPausedOnItsOwn(row, true)
      state.core.change(row, .pause, at: now, into: &state.effects)
    }
  }

  /// Resumes one row (unless the whole board is paused: then it runs when the board resumes).
  public func resume(_ id: ID) {
    withRows { state, rows, now in
      guard let row = rows.row(of: id), state.core.rows[row].flags.isPausedOnItsOwn else { return }
      state.core.setPausedOnItsOwn(row, false)
      guard !rows.isPaused else { return }
      state.core.change(row, .resume, at: now, into: &state.effects)
    }
  }

  /// Pauses every row, e.g. while the app is in the background for apps whose countdowns stop then.
  public func pauseAll() {
    withRows { state, rows, now in
      rows.isPaused = true
      for row in rows.rows { state.core.change(row, .pause, at: now, into: &state.effects) }
    }
  }

  /// Resumes every row that was not paused on its own.
  public func resumeAll() {
    withRows { state, rows, now in
      rows.isPaused = false
      for row in rows.rows where !state.core.rows[row].flags.isPausedOnItsOwn {
        state.core.change(row, .resume, at: now, into: &state.effects)
      }
    }
  }

  // MARK: - Reading

  /// The number of rows.
  public var count: Int { read { _, rows in rows.count } ?? 0 }

  /// The IDs of all rows, in no particular order.
  public var ids: [ID] { read { _, rows in rows.rows.map { rows.ids[$0] } } ?? [] }

  /// A row's countdown as it is now.
  public func countdown(for id: ID) -> Countdown<C.Instant>? {
    read { state, rows in rows.row(of: id).map { engine.countdown(of: $0, in: state.core) } } ?? nil
  }

  /// A row as a source of rows describes it (``BoardRow``): what it counts to in wall-clock terms, and
  /// its total.
  ///
  /// A running row set from a date (``set(_:end:total:)``, ``BoardRow/Deadline/until(_:)``) gives back
  /// exactly that date, however the wall clock has moved since; a running row set from a clock instant
  /// gives the date that instant falls on now. A paused row (on its own or with the board) gives its
  /// time left. An app that keeps something per row beside the board (an index of the rows' ends, say)
  /// reads here what a row was before it changes it.
  public func row(for id: ID) -> BoardRow<ID>? {
    read { state, rows -> BoardRow<ID>? in
      guard let row = rows.row(of: id) else { return nil }
      let countdown = engine.countdown(of: row, in: state.core)
      let deadline: BoardRow<ID>.Deadline
      switch countdown.state {
      case .paused(let remaining, _):
        deadline = .paused(remaining: remaining)
      case .running where state.core.rows[row].flags.followsDate:
        deadline = .until(Date(timeIntervalSinceReferenceDate: state.core.rows.targets[row]))
      case .running(let end):
        deadline = .until(state.timeline.date(for: end))
      }
      return BoardRow(id: id, deadline: deadline, total: countdown.total)
    } ?? nil
  }

  /// A row's snapshot now.
  public func snapshot(for id: ID) -> Snapshot? {
    countdown(for: id)?.snapshot(at: engine.now, display: display)
  }

  /// Whether a slot is bound to row `id` as far as the board knows, and whether the engine renders the
  /// row for it: for tests that check that a released slot leaves nothing behind.
  package func bindingState(of id: ID) -> (isBound: Bool, isRendered: Bool) {
    read { state, rows in
      (rows.bindings[id] != nil, rows.row(of: id).map { state.core.rows[$0].flags.hasBinding } ?? false)
    } ?? (false, false)
  }

  /// The number of slots bound to rows of the board, whether the rows are there or not: for tests of
  /// how many bindings a list keeps.
  package var slotCount: Int {
    read { _, rows in rows.bindings.values.reduce(0) { $0 + $1.slots.count } } ?? 0
  }

  // MARK: - Finished rows

  /// The IDs of rows as they finish, bound or not, each once per time it reaches zero. Each access
  /// makes a new sequence that sees the rows finishing from then on.
  public var finished: AsyncStream<ID> { events.subscribe() }

  /// Calls `handler` on the main actor with the ID of each row as it finishes, bound or not.
  ///
  /// Handlers run in the engine's main-actor hop of the wake-up at which the row finished, after the
  /// slots' updates of that wake-up, so a cell already shows zero when its row's handler runs.
  public func onFinish(_ handler: @escaping @MainActor @Sendable (ID) -> Void) {
    events.add(handler)
  }
}

extension CountdownEngine {
  /// A board of countdowns keyed by `ID`, all shown with `display`.
  ///
  /// - Parameters:
  ///   - idType: The rows' ID type.
  ///   - display: What every row shows.
  ///   - values: Which rows the engine keeps a live value for: those a slot shows (the default), or
  ///     every row, handed over in one batch per wake-up (``CountdownBoard/onChanges(_:)``,
  ///     ``CountdownBoard/changes``, ``CountdownBoard/counts``). See ``BoardValues``.
  /// - Precondition: with ``BoardValues/everyRow``, `display` is a built-in display (seconds, minutes,
  ///   adaptive, phases, progress): one whose values the engine computes with integer arithmetic.
  @inlinable
  public func board<ID: Hashable & Sendable, Display: CountdownDisplay>(
    of idType: ID.Type = ID.self,
    display: Display,
    values: BoardValues = .boundRows
  ) -> CountdownBoard<ID, Display, C> {
    CountdownBoard(engine: self, display: display, values: values)
  }
}
