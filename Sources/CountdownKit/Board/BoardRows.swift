public import Synchronization

/// A board's part of the engine's state, kept under the engine's lock. The engine sees it through this
/// protocol, for the two things it asks of a board: the deliveries of a finished row, and forgetting
/// every row when it shuts down.
protocol BoardStorage: AnyObject, Sendable {
  /// What delivering the completion of engine row `row` takes: the board's sequences (off the main
  /// actor) and its handlers (on it). `nil` if the row is not the board's.
  func finished(row: Int) -> (sequences: @Sendable () -> Void, handlers: @MainActor @Sendable () -> Void)?

  /// Forgets every row (the engine dropped them all, shutting down).
  func removeAllRows()
}

/// The rows of a board with IDs of type `ID`: which engine row holds which ID, and which slot waits
/// for which ID.
///
/// Used only under the engine's lock; the state has a lock of its own all the same, so that it is
/// `Sendable` by construction. An operation takes the state out (``take()``), works on it with the
/// engine's core beside it, and puts it back (``put(_:)``).
@usableFromInline
final class BoardRows<ID: Hashable & Sendable>: BoardStorage {
  /// A slot's binding to an ID, kept while the row is absent so that it shows the row when it comes.
  @usableFromInline
  struct SlotBinding: Sendable {
    let token: UInt64
    /// The slot's state, cleared when another slot takes the row over.
    let slot: SlotState<ID>
    /// The slot's render closure, boxed: installed in the board's table each time the row is there.
    let subscriber: any AnyObject & Sendable
  }

  /// The state of the board's rows.
  @usableFromInline
  struct Rows: Sendable {
    /// The ID of each engine row that is the board's (other entries hold a leftover ID, never read).
    @usableFromInline var ids: [ID] = []
    @usableFromInline var index = BoardIndex()
    @usableFromInline var bindings: [ID: SlotBinding] = [:]
    @usableFromInline var isPaused = false

    @inlinable init() {}

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

    /// Makes room for `additional` more rows, up to engine row `highestRow`.
    @inlinable mutating func reserve(_ additional: Int, highestRow: Int) {
      ids.reserveCapacity(highestRow + 1)
      index.reserve(additional, ids: ids)
    }

    /// Forgets every row.
    @inlinable mutating func removeAll() {
      index.removeAll()
    }
  }

  /// The display class every row of the board shows.
  let displayClass: UInt32
  /// The board's number among the engine's boards, plus one: its rows' owner.
  let owner: UInt16
  private let events: FinishEvents<ID>
  @usableFromInline let state = Mutex(Rows())

  init(displayClass: UInt32, owner: UInt16, events: FinishEvents<ID>) {
    self.displayClass = displayClass
    self.owner = owner
    self.events = events
  }

  /// Takes the rows out, for an operation under the engine's lock.
  @inlinable func take() -> Rows {
    state.withLock { rows in
      defer { rows = Rows() }
      return rows
    }
  }

  /// Puts the rows back.
  @inlinable func put(_ rows: consuming Rows) {
    let rows = rows
    state.withLock { $0 = rows }
  }

  func finished(row: Int) -> (sequences: @Sendable () -> Void, handlers: @MainActor @Sendable () -> Void)? {
    let id = state.withLock { rows -> ID? in
      guard row < rows.ids.count, rows.row(of: rows.ids[row]) == row else { return nil }
      return rows.ids[row]
    }
    guard let id else { return nil }
    let events = events
    return ({ events.yield(id) }, { events.runHandlers(id) })
  }

  func removeAllRows() {
    state.withLock { $0.removeAll() }
  }
}
