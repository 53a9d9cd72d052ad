public import Foundation

/// Many countdowns by ID, for lists: rows come and go with refreshes and pagination, cells bind to
/// the rows they show.
///
/// A row costs only its completion entry until a cell binds to it, so a board of a million rows with
/// fifty visible costs fifty live countdowns. Rows finish (and are reported through ``finished`` and
/// ``onFinish(_:)``) whether or not they are on screen.
///
/// ```swift
/// let board = engine.board(of: Order.ID.self, display: .coarse)
/// try board.set(order.id, end: order.fittingEndsAt)
/// // in the cell:
/// slot.bind(to: order.id) { snapshot in label.text = snapshot.value.formatted(.countdown(.coarse)) }
/// ```
///
/// All methods are synchronous and safe from any thread; slots are used on the main actor. Slots keep
/// their board alive; when the board goes away (no slot and no other reference left), its rows stop,
/// and none of them reports its completion any more.
public final class CountdownBoard<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>: Sendable
where C.Duration == Duration {
  /// What a bound slot receives.
  public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

  struct Binding {
    let token: UInt64
    /// Makes the slot's renderer: a fresh one each time the row (re)appears, since the previous one
    /// was closed when the row left, which drops anything still queued for it.
    let makeRenderer: @Sendable () -> Renderer
  }

  struct State {
    var rows: [ID: EntryID] = [:]
    /// Rows paused one by one (they stay paused when the whole board resumes).
    var pausedRows: Set<ID> = []
    var isPaused = false
    /// The slot binding of each bound row, kept while the row is absent so it renders when it returns.
    var bindings: [ID: Binding] = [:]
    var nextToken: UInt64 = 1
  }

  /// The engine that drives the board.
  public let engine: CountdownEngine<C>
  /// What every row shows.
  public let display: Display
  let state = Lock(State())
  let events = FinishEvents<ID>()
  private let tolerance: Duration

  /// A board on `engine` whose rows show `display`.
  public init(engine: CountdownEngine<C>, display: Display) {
    self.engine = engine
    self.display = display
    self.tolerance = engine.state.withLock { $0.scheduler.tolerance(forPeriod: display.period) }
  }

  deinit {
    let entries = state.withLock { Array($0.rows.values) }
    engine.mutate { engineState, _ in ((), entries.flatMap { engineState.scheduler.remove($0) }) }
  }

  // MARK: - Rows

  /// Inserts a row or replaces its countdown; a bound slot shows the change at once.
  ///
  /// A paused `countdown` makes the row paused on its own (it stays paused when the board resumes); a
  /// running one set while the whole board is paused is frozen until the board resumes.
  public func set(_ id: ID, to countdown: Countdown<C.Instant>) {
    set(id, countdown, target: nil)
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
    let instant = try engine.instant(for: end)
    set(id, Countdown(end: instant, total: total), target: end)
  }

  /// Inserts or replaces a row that is paused with `remaining` left.
  public func setPaused(_ id: ID, remaining: Duration, total: Duration? = nil) {
    let now = engine.now
    set(id, Countdown(end: now.advanced(by: remaining), total: total).paused(at: now), target: nil)
  }

  /// Inserts rows and updates the ones that are there, leaving other rows alone.
  public func upsert(_ rows: [ID: Countdown<C.Instant>]) {
    for (id, countdown) in rows { set(id, countdown, target: nil) }
  }

  /// Removes a row: it stops, and its completion will not fire. A slot bound to it keeps its last
  /// snapshot and renders again if the row comes back.
  public func remove(_ id: ID) {
    state.withLock { state in
      state.pausedRows.remove(id)
      guard let entry = state.rows.removeValue(forKey: id) else { return }
      engine.mutate { engineState, _ in ((), engineState.scheduler.remove(entry)) }
    }
  }

  /// Makes the board hold exactly `rows` (a refresh, or a new page): rows that leave stop, new rows
  /// start, and rows that stay keep their state — bound slots, completion already reported, and a
  /// pause: a paused row stays paused with its frozen time; a running row moves to its new countdown.
  public func replaceAll(with rows: [ID: Countdown<C.Instant>]) {
    let gone = state.withLock { state in state.rows.keys.filter { rows[$0] == nil } }
    for id in gone { remove(id) }
    for (id, countdown) in rows {
      let keepsPause = state.withLock { $0.pausedRows.contains(id) && $0.rows[id] != nil }
      if !keepsPause { set(id, countdown, target: nil) }
    }
  }

  /// Pauses one row; it stays paused when the whole board resumes.
  public func pause(_ id: ID) {
    state.withLock { state in
      guard let entry = state.rows[id] else { return }
      state.pausedRows.insert(id)
      engine.mutate { engineState, now in
        ((), engineState.update(entry, at: now, target: .some(nil)) { $0.paused(at: now) })
      }
    }
  }

  /// Resumes one row (unless the whole board is paused: then it runs when the board resumes).
  public func resume(_ id: ID) {
    state.withLock { state in
      guard let entry = state.rows[id], state.pausedRows.remove(id) != nil, !state.isPaused else { return }
      engine.mutate { engineState, now in ((), engineState.update(entry, at: now) { $0.resumed(at: now) }) }
    }
  }

  /// Pauses every row, e.g. while the app is in the background for apps whose countdowns stop then.
  public func pauseAll() {
    state.withLock { state in
      state.isPaused = true
      let entries = Array(state.rows.values)
      engine.mutate { engineState, now in
        ((), entries.flatMap { engineState.update($0, at: now, target: .some(nil)) { $0.paused(at: now) } })
      }
    }
  }

  /// Resumes every row that was not paused on its own.
  public func resumeAll() {
    state.withLock { state in
      state.isPaused = false
      let entries = state.rows.filter { !state.pausedRows.contains($0.key) }.map(\.value)
      engine.mutate { engineState, now in
        ((), entries.flatMap { engineState.update($0, at: now) { $0.resumed(at: now) } })
      }
    }
  }

  // MARK: - Reading

  /// The number of rows.
  public var count: Int { state.withLock { $0.rows.count } }

  /// The IDs of all rows, in no particular order.
  public var ids: [ID] { state.withLock { Array($0.rows.keys) } }

  /// A row's countdown as it is now.
  public func countdown(for id: ID) -> Countdown<C.Instant>? {
    guard let entry = state.withLock({ $0.rows[id] }) else { return nil }
    return engine.state.withLock { $0.countdown(of: entry) }
  }

  /// A row's snapshot now.
  public func snapshot(for id: ID) -> Snapshot? {
    countdown(for: id)?.snapshot(at: engine.now, display: display)
  }

  /// Whether a slot is bound to row `id` as far as the board knows, and whether the engine renders the
  /// row for it: for tests that check that a released slot leaves nothing behind.
  package func bindingState(of id: ID) -> (isBound: Bool, isRendered: Bool) {
    let (isBound, entry) = state.withLock { ($0.bindings[id] != nil, $0.rows[id]) }
    let isRendered = entry.map { entry in engine.state.withLock { $0.scheduler.hasRenderer(entry) } } ?? false
    return (isBound, isRendered)
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

  // MARK: - Internals

  private func set(_ id: ID, _ countdown: Countdown<C.Instant>, target: Date?) {
    state.withLock { state in
      // A row is paused on its own only if it was given paused; a running row set while the whole
      // board is paused is frozen with the board and runs again when the board resumes.
      if countdown.isPaused { state.pausedRows.insert(id) } else { state.pausedRows.remove(id) }
      let boardIsPaused = state.isPaused
      let events = events
      if let entry = state.rows[id] {
        engine.mutate { engineState, now in
          let final = boardIsPaused ? countdown.paused(at: now) : countdown
          return ((), engineState.update(entry, at: now, target: .some(target)) { _ in final })
        }
        return
      }
      // A row that comes back to a bound slot gets a fresh renderer: the one it had was closed when the
      // row left, which drops anything still queued for it.
      let renderer = state.bindings[id]?.makeRenderer()
      let tolerance = renderer == nil ? nil : tolerance
      state.rows[id] = engine.mutate { engineState, now in
        engineState.add(
          boardIsPaused ? countdown.paused(at: now) : countdown, target: target, renderer: renderer,
          tolerance: tolerance, onFinish: { events.deliveries(for: id) }, at: now)
      }
    }
  }

  /// Binds a slot's renderer to a row (or to a row yet to come); returns the token of the binding.
  @MainActor
  func bind(_ id: ID, token: UInt64, render: @escaping @MainActor @Sendable (UInt64, Snapshot) -> Void) {
    let display = display
    let origin = engine.origin
    let makeRenderer: @Sendable () -> Renderer = {
      .rendering(display, origin: origin, onChange: { render(token, $0) })
    }
    let entry = state.withLock { state in
      state.bindings[id] = Binding(token: token, makeRenderer: makeRenderer)
      return state.rows[id]
    }
    // Outside the board's lock: rendering runs the slot's code, which may call back into the board.
    if let entry {
      let renderer = makeRenderer()
      let tolerance = tolerance
      engine.mutateOnMain { engineState, now in
        ((), engineState.attach(renderer, tolerance: tolerance, to: entry, at: now))
      }
    }
  }

  /// A fresh binding token.
  func reserveToken() -> UInt64 {
    state.withLock { state in
      defer { state.nextToken += 1 }
      return state.nextToken
    }
  }

  /// Ends the binding with `token` if it is still the row's binding.
  func unbind(_ id: ID, token: UInt64) {
    state.withLock { state in
      guard state.bindings[id]?.token == token else { return }
      state.bindings[id] = nil
      guard let entry = state.rows[id] else { return }
      engine.mutate { engineState, now in ((), engineState.detach(entry, at: now)) }
    }
  }
}

extension CountdownEngine {
  /// A board of countdowns keyed by `ID`, all shown with `display`.
  public func board<ID: Hashable & Sendable, Display: CountdownDisplay>(
    of idType: ID.Type = ID.self,
    display: Display
  ) -> CountdownBoard<ID, Display, C> {
    CountdownBoard(engine: self, display: display)
  }
}
