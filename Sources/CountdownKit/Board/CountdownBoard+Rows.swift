// The board's work under the engine's lock: finding its rows and placing a countdown in a row (slots
// are in CountdownBoard+Slots.swift).

extension CountdownBoard {
  @usableFromInline typealias Rows = BoardRows<ID, SlotEntry<Display.Value, C.Instant>>

  /// Runs `body` with the board's rows under the engine's lock (see `CountdownEngine.mutate(_:)`).
  @usableFromInline
  @discardableResult
  func withRows<Result>(_ body: (inout EngineState<C>, inout Rows, Tick) -> Result) -> Result? {
    let number = number
    return engine.mutate { state, now in Self.withRows(number, in: &state) { body(&$0, &$1, now) } }
  }

  /// Like ``withRows(_:)``, on the main actor: delivers what is waiting for it before returning.
  @MainActor
  @discardableResult
  func withRowsOnMain<Result>(_ body: (inout EngineState<C>, inout Rows, Tick) -> Result) -> Result? {
    let number = number
    return engine.mutateOnMain { state, now in Self.withRows(number, in: &state) { body(&$0, &$1, now) } }
  }

  /// Reads the board's rows under the engine's lock.
  func read<Result: Sendable>(_ body: (inout EngineState<C>, inout Rows) -> Result) -> Result? {
    let number = number
    return engine.state.withLock { state in Self.withRows(number, in: &state) { body(&$0, &$1) } }
  }

  /// Takes the rows of board `number` out of `state` for `body`, and puts them back: while `body` runs,
  /// the rows are held only here, so that changing them copies nothing.
  @usableFromInline
  static func withRows<Result>(
    _ number: Int, in state: inout EngineState<C>, _ body: (inout EngineState<C>, inout Rows) -> Result
  ) -> Result? {
    guard var rows = state.boards[number] as? Rows else { return nil }
    state.boards[number] = nil
    let result = body(&state, &rows)
    state.boards[number] = rows
    return result
  }

  /// Puts the countdown `spec` describes in row `id`: replaces the countdown of an existing row
  /// (keeping its slots and its completion's state), or adds the row and binds it to the slots that
  /// wait for it. A paused `spec` pauses the row on its own; while the board is paused, a running one
  /// is frozen with it.
  @inlinable
  func place(
    _ id: ID, _ spec: EngineCore.RowSpec, in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick
  ) {
    var spec = spec
    spec.owner = UInt16(number + 1)
    spec.isPausedOnItsOwn = spec.pausedAt != nil
    if rows.isPaused, spec.pausedAt == nil {
      spec.pausedAt = now
      spec.target = nil
    }
    if let row = rows.row(of: id) {
      state.core.change(row, .replace(spec), at: now, into: &state.effects)
      // A slot's ring steps through the row's total: a new total needs a new binding.
      if !rows.bindings.isEmpty, rows.bindings[id] != nil { renewRing(of: id, row: row, in: &state, &rows, at: now) }
      return
    }
    // A row that slots wait for is bound to them as it comes.
    if !rows.bindings.isEmpty, rows.bindings[id] != nil { return placeBound(id, spec, in: &state, &rows, at: now) }
    rows.insert(id, row: state.core.add(spec, at: now, into: &state.effects))
  }

  /// Makes room for `additional` rows in the engine and the board. Inlinable, so that the board's index
  /// is rehashed by code specialised for `ID` (generic code reads each ID through its type's witnesses,
  /// which costs a large load measurably; Benchmarks/README.md has the figure).
  @inlinable
  func reserve(_ additional: Int, in state: inout EngineState<C>, _ rows: inout Rows) {
    let engineRows = Self.reserveEngineRows(additional, in: &state)
    rows.reserve(additional, highestRow: engineRows + additional)
  }

  /// Makes room for `additional` rows in the engine; returns how many rows its columns have.
  @usableFromInline
  static func reserveEngineRows(_ additional: Int, in state: inout EngineState<C>) -> Int {
    state.core.rows.reserve(additional)
    return state.core.rows.capacity
  }
}
