/// The rows of a board with IDs of type `ID`: which engine row holds which ID, and which slots show
/// (or wait for) which ID, each slot's renders going to an `Entry` (a `SlotEntry` of the board's value
/// and instant types). Kept in the engine's state (``BoardState``); an operation takes it out, works on it
/// with the engine's core beside it, and puts it back (see `CountdownBoard.withRows(_:)`).
@usableFromInline
struct BoardRows<ID: Hashable & Sendable, Entry: Sendable>: BoardState {
  /// The ID of each engine row that is the board's (other entries hold a leftover ID, never read).
  @usableFromInline var ids: [ID] = []
  @usableFromInline var index = BoardIndex()
  /// The slots bound to each ID, whether the row is on the board or not.
  @usableFromInline var bindings: [ID: RowSlots<Entry>] = [:]
  @usableFromInline var isPaused = false
  /// Where the board's finished rows are announced.
  let events: FinishEvents<ID>
  /// Where the changed rows of a board that keeps every row's value go; `nil` once the board is gone.
  var live: LiveRoute<ID>?
  /// For a board that is gone while rows of it still ran: forgets a row once its completion was
  /// reported (see `CountdownBoard.letGo(of:displayClass:on:)`).
  var forget: (@Sendable (ID) -> Void)?

  init(events: FinishEvents<ID>, live: LiveRoute<ID>?) {
    self.events = events
    self.live = live
  }

  /// The number of rows.
  @inlinable var count: Int { index.count }

  /// The engine row of `id`.
  @inlinable func row(of id: ID) -> Int? {
    index.row(of: id, ids: ids)
  }

  /// Every engine row of the board.
  @inlinable var rows: [Int] { index.rows }

  /// Fetches the index bucket of `id` ahead of a lookup (see `BoardIndex.prefetch(_:)`).
  @inlinable func prefetch(_ id: ID) { index.prefetch(id) }

  /// Records that engine row `row` holds `id`.
  @inlinable mutating func insert(_ id: ID, row: Int) {
    if row >= ids.count { ids.append(contentsOf: repeatElement(id, count: row + 1 - ids.count)) }
    ids[row] = id
    index.insert(row, for: id, ids: ids)
  }

  /// Forgets `id`, returning its engine row.
  @inlinable mutating func remove(_ id: ID) -> Int? {
    index.remove(id, ids: ids)
  }

  /// Makes room for `additional` more rows, up to engine row `highestRow` (growing by at least half).
  @inlinable mutating func reserve(_ additional: Int, highestRow: Int) {
    ids.reserveGrowing(highestRow + 1)
    index.reserve(additional, ids: ids)
  }

  @usableFromInline
  func finished(row: Int) -> (sequences: @Sendable () -> Void, handlers: @MainActor @Sendable () -> Void)? {
    guard row < ids.count, self.row(of: ids[row]) == row else { return nil }
    let (id, events) = (ids[row], events)
    guard let forget else { return ({ events.yield(id) }, { events.runHandlers(id) }) }
    return (
      {
        events.yield(id)
        forget(id)
      }, { events.runHandlers(id) }
    )
  }

  @usableFromInline
  func liveChanges(_ entries: [LiveColumns.Entry]) -> (
    main: (@MainActor @Sendable () -> Void)?, sequences: (@Sendable () -> Void)?
  )? {
    guard let live else { return nil }
    let (needsDelivery, wakes) = live.batches.post(live.identify(ids, entries))
    let batches = live.batches
    var main: (@MainActor @Sendable () -> Void)?
    if needsDelivery { main = { batches.deliver() } }
    var sequences: (@Sendable () -> Void)?
    if !wakes.isEmpty { sequences = { for wake in wakes { wake.yieldUnlocked() } } }
    return (main, sequences)
  }

  @usableFromInline
  mutating func removeAllRows() {
    index.removeAll()
    forget = nil
  }
}

/// How a board that keeps every row's value hands its changed rows on: to its batches, each row with
/// its ID (found by `identify`, made where the board's ID type is named).
@usableFromInline
struct LiveRoute<ID: Hashable & Sendable>: Sendable {
  let batches: LiveBatches<ID>
  let identify: @Sendable (_ ids: [ID], _ entries: [LiveColumns.Entry]) -> [LiveBatches<ID>.Change]

  @usableFromInline
  init(
    batches: LiveBatches<ID>,
    identify: @escaping @Sendable (_ ids: [ID], _ entries: [LiveColumns.Entry]) -> [LiveBatches<ID>.Change]
  ) {
    self.batches = batches
    self.identify = identify
  }
}
