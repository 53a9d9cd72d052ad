/// The pages of a reload, gathered until the source has caught up, so that they replace a board's rows
/// in one step.
///
/// A source that lost track of what changed (it was away longer than its log of changes is kept) sends
/// the whole table again, in pages, with the changes made meanwhile between them. Applied as they came,
/// the pages would show a board that empties and fills again; gathered, they give one
/// ``BoardChange/reloaded(_:)`` once the source has caught up. Rows upserted again replace the ones
/// gathered before; removed rows leave.
///
/// ```swift
/// var reload = ReloadGatherer<BoardRow<Int64>>()
/// for try await change in source {
///   switch change {
///   case .reloading: reload.begin()
///   case .upserted(let rows): if !reload.gather(rows) { board.apply(.changed(upserted: rows, removed: [])) }
///   case .removed(let ids): if !reload.gather(removing: ids) { board.apply(.removed(ids)) }
///   case .caughtUp: if let rows = reload.finish() { board.apply(.reloaded(rows)) }
///   }
/// }
/// ```
public struct ReloadGatherer<Row: Identifiable> {
  /// The rows gathered, in the order first seen; nil where a row was removed since.
  private var rows: [Row?] = []
  /// Where each gathered row is in `rows`.
  private var positions: [Row.ID: Int] = [:]
  /// The rows removed since they were gathered.
  private var removedCount = 0

  /// Whether a reload is under way (``begin()`` was called and ``finish()`` not yet).
  public private(set) var isGathering = false

  /// A gatherer with no reload under way.
  public init() {}

  /// Starts a reload, or starts it again: what was gathered is dropped.
  public mutating func begin() {
    rows.removeAll(keepingCapacity: true)
    positions.removeAll(keepingCapacity: true)
    removedCount = 0
    isGathering = true
  }

  /// Gathers upserted rows while a reload is under way.
  ///
  /// - Returns: Whether the rows were gathered; `false` when no reload is under way (apply them
  ///   yourself).
  /// - Complexity: O(n) in the rows given.
  public mutating func gather(_ upserted: some Sequence<Row>) -> Bool {
    guard isGathering else { return false }
    for row in upserted {
      if let position = positions[row.id] {
        if rows[position] == nil { removedCount -= 1 }
        rows[position] = row
      } else {
        positions[row.id] = rows.count
        rows.append(row)
      }
    }
    return true
  }

  /// Takes removed IDs out of the rows gathered while a reload is under way.
  ///
  /// - Returns: Whether the removal was gathered; `false` when no reload is under way (apply it
  ///   yourself).
  /// - Complexity: O(n) in the IDs given.
  public mutating func gather(removing ids: some Sequence<Row.ID>) -> Bool {
    guard isGathering else { return false }
    for id in ids {
      guard let position = positions[id], rows[position] != nil else { continue }
      rows[position] = nil
      removedCount += 1
    }
    return true
  }

  /// Ends the reload under way.
  ///
  /// - Returns: Every row gathered and not removed since, in the order first gathered; nil when no
  ///   reload is under way.
  /// - Complexity: O(n) in the rows gathered.
  public mutating func finish() -> [Row]? {
    guard isGathering else { return nil }
    var gathered: [Row] = []
    gathered.reserveCapacity(rows.count - removedCount)
    for case let row? in rows { gathered.append(row) }
    rows = []
    positions = [:]
    removedCount = 0
    isGathering = false
    return gathered
  }
}

extension ReloadGatherer: Sendable where Row: Sendable, Row.ID: Sendable {}
