public import Foundation

// A board that follows a source of rows: batches of changes (``BoardChange``) applied under one hold of
// the engine's lock each, at a cost proportional to the rows a batch names.

extension CountdownBoard {
  /// Applies a batch of changes at once: other threads see the board before the batch or after it,
  /// never half of it. A bound slot shows its row's change at once.
  ///
  /// Rows counting to a date count to the engine instant the date has when the batch is applied, and
  /// follow it when the wall clock changes. Rows counting a duration (``Deadline/after(_:)``)
  /// count it from `start`, or from the moment the batch is applied without it: give the instant the
  /// durations were measured at (`engine.now` when you made the rows) so that the time spent making
  /// and applying a large batch is not added to every row. A paused row is paused on its own: it stays
  /// paused when the whole board resumes; a running row put on a board that is paused (``pauseAll()``)
  /// is frozen with it until it resumes. A row whose date cannot be counted to (not finite, or absurdly
  /// far away) is removed, as a row the source cannot describe, and its ID is returned.
  ///
  /// - Returns: The IDs of the rows removed because their date cannot be counted to; empty for a batch
  ///   whose dates are all usable.
  /// - Complexity: O(n) in the rows the batch names, under one hold of the engine's lock; a reload also
  ///   walks the rows the board held before.
  @inlinable
  @discardableResult
  public func apply(_ change: BoardChange<ID>, asOf start: C.Instant? = nil) -> [ID] {
    let start = start.map(tick(start:))
    switch change {
    case .changed(let upserted, let removed) where upserted.count <= 1:
      // A change of one row (an edit, a cell's swipe): nothing to gather in a batch.
      let single = upserted.first.map { row in (id: row.id, row: prepare(row) { try engine.instant(for: $0) }) }
      withRows { state, rows, now in
        for id in removed {
          guard let row = rows.remove(id) else { continue }
          state.core.remove(row, into: &state.effects)
        }
        if let single { place(single.id, single.row, in: &state, &rows, at: now, from: start ?? now) }
      }
      guard let single, case .unusable = single.row else { return [] }
      return [single.id]
    case .changed(let upserted, let removed):
      let prepared = prepare(upserted)
      withRows { state, rows, now in
        for id in removed {
          guard let row = rows.remove(id) else { continue }
          state.core.remove(row, into: &state.effects)
        }
        place(prepared, in: &state, &rows, at: now, from: start ?? now)
      }
      return Self.unusable(prepared)
    case .reloaded(let all):
      let prepared = prepare(all)
      withRows { state, rows, now in
        removeRows(notIn: prepared, in: &state, &rows)
        place(prepared, in: &state, &rows, at: now, from: start ?? now)
      }
      return Self.unusable(prepared)
    }
  }

  /// The IDs of the rows of `prepared` whose date the engine cannot count to.
  @inlinable
  static func unusable(_ prepared: [(id: ID, row: PreparedRow)]) -> [ID] {
    var unusable: [ID] = []
    for (id, row) in prepared {
      if case .unusable = row { unusable.append(id) }
    }
    return unusable
  }

  /// The tick durations counted from `start` count from: never before the instant (rounded up).
  @usableFromInline
  func tick(start: C.Instant) -> Tick {
    engine.tick(end: start)
  }

  /// Follows `changes`: applies each batch as it comes (``apply(_:asOf:)``), in order, until the sequence
  /// ends.
  ///
  /// The sequence is read in the caller's isolation (`isolation`): follow a source with many or large
  /// batches from a task that is not on the main actor, so that applying them never holds up the UI.
  /// Cancelling the task ends the following when the sequence ends on cancellation, as `AsyncStream`
  /// does.
  ///
  /// - Throws: The error the sequence throws, as soon as it throws it; the rows applied until then stay
  ///   on the board.
  @inlinable
  public func follow<Changes: AsyncSequence>(
    _ changes: Changes, isolation: isolated (any Actor)? = #isolation
  ) async throws(Changes.Failure) where Changes.Element == BoardChange<ID> {
    var iterator = changes.makeAsyncIterator()
    while let change = try await iterator.next(isolation: isolation) {
      apply(change)
    }
  }

  /// Makes room for `count` rows in all (those the board holds and those to come), so that a board
  /// about to be filled with many rows, such as a first load in batches, copies none of them on the way.
  ///
  /// - Complexity: O(n) in the rows the board and its engine hold, when they must move.
  public func reserveCapacity(_ count: Int) {
    withRows { state, rows, _ in reserve(Swift.max(0, count - rows.count), in: &state, &rows) }
  }

  // MARK: - Applying

  /// A row of a batch, converted to the engine's terms outside its lock.
  @usableFromInline
  enum PreparedRow {
    /// A row counting to a date: its engine row, ready.
    case running(EngineCore.RowSpec)
    /// A row running for a duration: made at the moment the batch is applied.
    case after(remaining: Duration, total: Duration?)
    /// A paused row: made at the moment the batch is applied.
    case paused(remaining: Duration, total: Duration?)
    /// A date the engine cannot count to: the row is removed.
    case unusable
  }

  /// The rows of a batch in the engine's terms: dates become ticks through one copy of the timeline.
  @inlinable
  func prepare(_ rows: [BoardRow<ID>]) -> [(id: ID, row: PreparedRow)] {
    guard !rows.isEmpty else { return [] }
    let timeline = engine.timeline
    return rows.map { row in (row.id, prepare(row) { try timeline.instant(for: $0) }) }
  }

  /// A row in the engine's terms, its date converted by `instant`.
  @inlinable
  func prepare(_ row: BoardRow<ID>, instant: (Date) throws -> C.Instant) -> PreparedRow {
    switch row.deadline {
    case .until(let date):
      guard let end = try? instant(date) else { return .unusable }
      return .running(engine.spec(for: Countdown(end: end, total: row.total), target: date))
    case .after(let remaining):
      return .after(remaining: remaining, total: row.total)
    case .paused(let remaining):
      return .paused(remaining: remaining, total: row.total)
    }
  }

  /// Places each prepared row (``place(_:_:in:_:at:from:)``); rows running for a duration count it from
  /// `start`.
  @inlinable
  func place(
    _ prepared: [(id: ID, row: PreparedRow)], in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick,
    from start: Tick
  ) {
    guard !prepared.isEmpty else { return }
    // Room for the rows a batch larger than the board must bring (a first load, a bigger page), made
    // at once: a board that grows row by row rehashes and copies its columns as it goes. A batch that
    // may update rows the board has makes no room ahead.
    if prepared.count > rows.count { reserve(prepared.count - rows.count, in: &state, &rows) }
    for index in prepared.indices {
      // The index bucket of the row 8 places ahead is fetched first: the cache misses of a large batch
      // then overlap.
      if index + 8 < prepared.count { rows.prefetch(prepared[index + 8].id) }
      place(prepared[index].id, prepared[index].row, in: &state, &rows, at: now, from: start)
    }
  }

  /// Places one prepared row (``place(_:_:in:_:at:)``), or removes it if it is unusable.
  @inlinable
  func place(
    _ id: ID, _ row: PreparedRow, in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick, from start: Tick
  ) {
    switch row {
    case .running(let spec):
      place(id, spec, in: &state, &rows, at: now)
    case .after(let remaining, let total):
      place(id, spec(remaining: remaining, total: total, pausedAt: nil, from: start), in: &state, &rows, at: now)
    case .paused(let remaining, let total):
      place(id, spec(remaining: remaining, total: total, pausedAt: now, from: now), in: &state, &rows, at: now)
    case .unusable:
      guard let row = rows.remove(id) else { return }
      state.core.remove(row, into: &state.effects)
    }
  }

  /// A row with `remaining` left at `start`, paused at `pausedAt` if given.
  @usableFromInline
  func spec(remaining: Duration, total: Duration?, pausedAt: Tick?, from start: Tick) -> EngineCore.RowSpec {
    var spec = EngineCore.RowSpec(end: Ticks.sum(start, Ticks.ceiling(remaining)), pausedAt: pausedAt)
    spec.total = total.map(Ticks.ceiling)
    return spec
  }

  /// Removes every row whose ID `prepared` does not hold (or holds only as unusable): the first step of
  /// a reload, done before any row is placed so that no row number is reused while the reload runs.
  @inlinable
  func removeRows(
    notIn prepared: [(id: ID, row: PreparedRow)], in state: inout EngineState<C>, _ rows: inout Rows
  ) {
    var keeps = [Bool](repeating: false, count: rows.ids.count)
    for (id, row) in prepared {
      if case .unusable = row { continue }
      if let row = rows.row(of: id) { keeps[row] = true }
    }
    for row in rows.rows where !keeps[row] {
      guard let row = rows.remove(rows.ids[row]) else { continue }
      state.core.remove(row, into: &state.effects)
    }
  }
}
