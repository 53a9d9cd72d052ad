/// A column whose storage is made the first time a value other than its default is written.
package struct LazyColumn<Value: BitwiseCopyable & Sendable>: Sendable {
  private var values: [Value] = []
  private let defaultValue: Value

  init(default defaultValue: Value) {
    self.defaultValue = defaultValue
  }

  package subscript(row: Int) -> Value {
    get { row < values.count ? values[row] : defaultValue }
    set {
      if row >= values.count { values.append(contentsOf: repeatElement(defaultValue, count: row + 1 - values.count)) }
      values[row] = newValue
    }
  }

  /// Writes `value` in `row`. Storage that must grow doubles, but to no more than `limit` rows (the
  /// capacity of the columns it sits beside) while that is enough: a column filled as reserved rows
  /// fill ends no larger than they are.
  package mutating func set(_ row: Int, to value: Value, growingTo limit: Int) {
    if row >= values.capacity {
      values.reserveCapacity(grownCapacity(from: values.capacity, toHold: row + 1, limit: limit))
    }
    self[row] = value
  }

  /// Makes room for `rows` rows (making storage).
  package mutating func reserve(_ rows: Int) { values.reserveCapacity(rows) }

  /// How many rows the column's storage has room for (for tests of its memory).
  package var storedCapacity: Int { values.capacity }

  /// Puts the default value back in `row` (making no storage for it).
  package mutating func reset(_ row: Int) {
    if row < values.count { values[row] = defaultValue }
  }

  /// A column's values read through its storage, valid only inside ``withReader(_:)``.
  struct Reader {
    let values: UnsafeBufferPointer<Value>
    let defaultValue: Value

    subscript(row: Int) -> Value { row < values.count ? values[row] : defaultValue }
  }

  /// Calls `body` with a reader of the column (no copy, no bounds check beyond the one ``Reader`` makes).
  func withReader<Result>(_ body: (Reader) -> Result) -> Result {
    values.withUnsafeBufferPointer { body(Reader(values: $0, defaultValue: defaultValue)) }
  }
}

/// A column for a value that few rows have (the instant a paused row was paused at): a dictionary by
/// row while at most a quarter of the rows have one, then a ``LazyColumn`` for good. An entry of the
/// dictionary costs about three slots of a column, so the dictionary is the smaller while few rows
/// have a value, and a column of every row costs little more than it once many do.
package struct SparseColumn<Value: BitwiseCopyable & Sendable>: Sendable {
  private var sparse: [UInt32: Value] = [:]
  private var dense: LazyColumn<Value>
  private let defaultValue: Value
  /// Whether the values live in the column (the dictionary is empty then).
  package private(set) var isDense = false

  init(default defaultValue: Value) {
    self.defaultValue = defaultValue
    dense = LazyColumn(default: defaultValue)
  }

  package subscript(row: Int) -> Value {
    isDense ? dense[row] : sparse[UInt32(truncatingIfNeeded: row)] ?? defaultValue
  }

  /// Writes `value` in `row`, one of `rows` rows (the capacity of the columns beside it). The first
  /// write that gives more than a quarter of them a value moves every value into the column, once.
  ///
  /// - Complexity: O(1) on average; O(number of values) for the write that moves them.
  package mutating func set(_ row: Int, to value: Value, of rows: Int) {
    guard !isDense else { return dense.set(row, to: value, growingTo: rows) }
    sparse[UInt32(truncatingIfNeeded: row)] = value
    guard sparse.count * 4 > rows else { return }
    dense.reserve(rows)
    for (row, value) in sparse { dense.set(Int(row), to: value, growingTo: rows) }
    sparse = [:]
    isDense = true
  }

  /// Forgets `row`'s value.
  package mutating func reset(_ row: Int) {
    if isDense { dense.reset(row) } else { sparse[UInt32(truncatingIfNeeded: row)] = nil }
  }

  /// How many values the storage has room for: the dictionary's capacity, or the column's (for tests
  /// of its memory).
  package var storedCapacity: Int { isDense ? dense.storedCapacity : sparse.capacity }
}
