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
