/// The engine's countdowns, as columns indexed by row number.
///
/// What the hot loop reads for every change sits together in one 24-byte ``Head`` per row (one cache
/// line touched per row served). What only some rows have lives in columns that are allocated the first
/// time a row needs them: a total for progress, the wall-clock date a row follows; once made, they grow no
/// larger than the heads' storage while it holds them all (a board reserved for a million rows has
/// columns of a million). The instant a paused row was paused at is kept by row in a dictionary while
/// few rows are paused (``SparseColumn``). A registered board row that nobody shows costs its head plus
/// its schedule item.
///
/// Rows are reused: ``Head/generation`` tells a handle whether its row is still the countdown it was made
/// for.
package struct Rows: Sendable {
  /// The hot fields of one row.
  package struct Head: Sendable {
    /// Running: the tick the countdown ends at. Paused: the end it had when it was paused, so that
    /// the frozen remaining time is `end - pausedAt`.
    package var end: Tick
    /// Matches the stamp of the row's one valid schedule item (see ``Schedule``).
    package var stamp: UInt32
    /// Changes each time the row is reused.
    package var generation: UInt32
    package var flags: RowFlags
    /// The row's binding (see ``Bindings``), when ``RowFlags/hasBinding``.
    package var binding: UInt32
  }

  package private(set) var heads: [Head] = []
  /// When each paused row was paused (read only for paused rows).
  package private(set) var pausedAt = SparseColumn<Tick>(default: 0)
  /// Each row's total in ticks, for progress; -1 for none.
  package private(set) var totals = LazyColumn<Tick>(default: -1)
  /// The wall-clock date (seconds since 2001, as `Date` counts) a row's end came from; NaN for none.
  package private(set) var targets = LazyColumn<Double>(default: .nan)
  private var free: [UInt32] = []
  /// Rows freed by the current operation: reused only after it (see ``recycle()``), so that an event
  /// the operation produced about a row never meets another countdown in its place.
  private var freed: [UInt32] = []
  private var nextGeneration: UInt32 = 1
  /// The number of live rows.
  package private(set) var count = 0

  package init() {}

  /// Takes a row (a free one, or a new one) and gives it a fresh generation.
  package mutating func allocate(end: Tick, flags: RowFlags) -> Int {
    let generation = nextGeneration
    nextGeneration = nextGeneration == .max ? 1 : nextGeneration + 1
    let head = Head(end: end, stamp: 0, generation: generation, flags: flags.with(isLive: true), binding: 0)
    count += 1
    if let row = free.popLast() {
      let row = Int(row)
      heads[row] = Head(
        end: end, stamp: heads[row].stamp, generation: generation, flags: head.flags, binding: 0)
      return row
    }
    heads.append(head)
    return heads.count - 1
  }

  /// Frees a live row; its stamp moves on, so that an item still queued for it is stale.
  package mutating func release(_ row: Int) {
    precondition(heads[row].flags.isLive, "Internal inconsistency: releasing row \(row), which is free")
    heads[row].flags = RowFlags()
    heads[row].stamp &+= 1
    pausedAt.reset(row)
    totals.reset(row)
    targets.reset(row)
    freed.append(UInt32(row))
    count -= 1
  }

  /// Makes the rows freed by the operation that ends available again.
  package mutating func recycle() {
    free.append(contentsOf: freed)
    freed.removeAll(keepingCapacity: true)
  }

  /// Makes room for `count` more rows without growing storage on the way.
  package mutating func reserve(_ additional: Int) {
    let needed = heads.count + Swift.max(additional - free.count, 0)
    heads.reserveGrowing(needed)
  }

  /// Whether `row` is live and still the countdown of `generation`.
  package func isCurrent(_ row: Int, generation: UInt32) -> Bool {
    row >= 0 && row < heads.count && heads[row].flags.isLive && heads[row].generation == generation
  }

  package subscript(row: Int) -> Head {
    get { heads[row] }
    set { heads[row] = newValue }
  }

  /// The remaining time of `row` at `now`: `end - now` running, frozen paused.
  package func remaining(_ row: Int, at now: Tick) -> Tick {
    let head = heads[row]
    return Ticks.difference(head.end, head.flags.isPaused ? pausedAt[row] : now)
  }

  package mutating func setPausedAt(_ row: Int, _ tick: Tick) {
    pausedAt.set(row, to: tick, of: heads.capacity)
  }

  /// Forgets when a row that no longer is paused was paused.
  package mutating func clearPausedAt(_ row: Int) { pausedAt.reset(row) }

  /// Sets (or, with nil, clears) a row's total.
  package mutating func setTotal(_ row: Int, _ total: Tick?) {
    if let total { totals.set(row, to: total, growingTo: heads.capacity) } else { totals.reset(row) }
  }

  /// Sets (or, with nil, clears) the date a row follows.
  package mutating func setTarget(_ row: Int, _ target: Double?) {
    if let target { targets.set(row, to: target, growingTo: heads.capacity) } else { targets.reset(row) }
  }

  /// The number of rows ever made (live and free): the bound of row numbers.
  package var capacity: Int { heads.count }

  /// How many rows the heads' storage has room for: what the other columns and the schedule's heaps
  /// grow to at most (a row has one valid item at a time).
  package var storedCapacity: Int { heads.capacity }

  /// Calls `body` with the heads' storage (to read and write) and the totals (to read): what serving a
  /// batch touches, taken once for the batch instead of once per row.
  mutating func withUnsafeServingColumns<Result>(
    _ body: (UnsafeMutableBufferPointer<Head>, LazyColumn<Tick>.Reader) -> Result
  ) -> Result {
    totals.withReader { totals in heads.withUnsafeMutableBufferPointer { body($0, totals) } }
  }
}
