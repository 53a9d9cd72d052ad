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
      let doubled = Swift.max(16, values.capacity * 2)
      values.reserveCapacity(Swift.max(row + 1, limit > row ? Swift.min(doubled, limit) : doubled))
    }
    self[row] = value
  }

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
