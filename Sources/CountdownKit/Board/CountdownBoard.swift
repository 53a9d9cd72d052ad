import Foundation
import Synchronization

/// Many countdowns by ID, for lists: rows come and go with refreshes and pagination, cells bind to
/// the rows they show.
///
/// A row that no cell shows costs its countdown's 24 bytes, its schedule entry and its ID, so a board
/// of a million rows with fifty visible costs fifty live subscribers. Rows finish (and are reported
/// through ``finished()`` and ``onFinish(_:)``) whether or not they are on screen.
///
/// ```swift
/// let board = engine.board(of: Order.ID.self, display: .coarse)
/// board.apply(.upserted([BoardRow(id: order.id, deadline: .until(order.fittingEndsAt), total: .seconds(7_200))]))
/// // in the cell:
/// slot.bind(to: order.id) { snapshot in label.text = snapshot.value.formatted(.countdown(.coarse)) }
/// ```
///
/// Rows are put on the board and taken off it in batches, ``apply(_:asOf:)`` with a ``BoardChange``, or by
/// following a source of batches, ``follow(_:isolation:)``. All methods are synchronous and safe from
/// any thread, and each one is atomic: a batch of a million rows happens at once for every other
/// thread. Slots are used on the main actor.
///
/// ### Lifetime
///
/// A countdown you put on a board runs to its finish unless you take it off: the board's last
/// reference going away (no slot, model or other reference left) does not stop it. Its running rows go
/// on, report their completion to the ``onFinish(_:)`` handlers you still keep and to the
/// ``finished()`` sequences, and are then forgotten; its paused rows, which nothing could resume any
/// more, are dropped with it, as are its rows that had already finished. Once its last row has
/// finished, nothing of the board is left in the engine, and its ``finished()`` sequences end. Slots
/// and row models keep their board alive. Handlers stay as long as you keep their
/// ``BoardObservation``; a handler may capture the board without keeping anything alive but itself.
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
  /// The display class every row shows, and its table.
  let displayClass: UInt32
  let table: SinkTable<Display, C.Instant>
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
    displayClass: (inout EngineState<C>) -> (displayClass: UInt32, table: SinkTable<Display, C.Instant>)
  ) {
    self.engine = engine
    self.display = display
    batches = live?.batches
    let events = events
    (number, self.displayClass, table) = engine.mutate { state, _ in
      let (displayClass, table) = displayClass(&state)
      state.core.classes.retain(displayClass)
      let number = state.boards.firstIndex { $0 == nil } ?? state.boards.count
      precondition(number < Int(UInt16.max), "A CountdownEngine holds at most 65,534 boards at once")
      let rows = Rows(events: events, live: live)
      if number == state.boards.count { state.boards.append(rows) } else { state.boards[number] = rows }
      if live != nil { state.core.addLive(owner: UInt16(number + 1), displayClass: displayClass) }
      return (number, displayClass, table)
    }
  }

  /// Lets go of the board, not of its rows: those that run go on to their finish and report it, and
  /// are forgotten once they have (see `let(go:)`).
  deinit {
    Self.letGo(of: number, displayClass: displayClass, on: engine)
  }

  // MARK: - Rows

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
  /// A running row set from a date (``Deadline/until(_:)``) gives back
  /// exactly that date, however the wall clock has moved since; a running row set from a clock instant
  /// gives the date that instant falls on now. A paused row (on its own or with the board) gives its
  /// time left. An app that keeps something per row beside the board (an index of the rows' ends, say)
  /// reads here what a row was before it changes it.
  public func row(for id: ID) -> BoardRow<ID>? {
    read { state, rows -> BoardRow<ID>? in
      guard let row = rows.row(of: id) else { return nil }
      let countdown = engine.countdown(of: row, in: state.core)
      let deadline: Deadline
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

  /// How many `finished()` and `changes()` sequences are subscribed: for tests that check that reading
  /// a property subscribes to nothing.
  package var sequenceCounts: (finished: Int, changes: Int) {
    (events.subscriberCount, batches?.subscriberCount ?? 0)
  }

  /// The number of slots bound to rows of the board, whether the rows are there or not: for tests of
  /// how many bindings a list keeps.
  package var slotCount: Int {
    read { _, rows in rows.bindings.values.reduce(0) { $0 + $1.slots.count } } ?? 0
  }

  // MARK: - Finished rows

  /// The IDs of rows as they finish from now on, bound or not, each once per time it reaches zero.
  ///
  /// Each call subscribes anew: the sequence sees every row that finishes after the call, even before
  /// its iteration starts, so make it before rows that matter may finish. It ends when the board is
  /// gone and its last running row has finished.
  public func finished() -> AsyncStream<ID> {
    events.subscribe()
  }

  /// Calls `handler` on the main actor with the ID of each row as it finishes, bound or not, for as
  /// long as you keep the observation this returns (see ``BoardObservation``).
  ///
  /// Handlers run in the engine's main-actor hop of the wake-up at which the row finished, after the
  /// slots' updates of that wake-up, so a cell already shows zero when its row's handler runs. A board
  /// that goes away while rows run still reports their completions to the handlers you keep.
  public func onFinish(_ handler: @escaping @MainActor @Sendable (ID) -> Void) -> BoardObservation {
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
  ///     ``CountdownBoard/changes()``, ``CountdownBoard/counts``). See ``BoardValues``.
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
