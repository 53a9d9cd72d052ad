extension Array {
  /// Makes room for `count` elements, at least doubling the capacity when it must grow.
  ///
  /// `reserveCapacity(_:)` allocates exactly what it is asked for: a board loaded in pages that reserved
  /// each page's rows that way would copy its columns once per page (quadratic in the pages). Growing
  /// by at least half keeps a load in pages to a logarithmic number of copies.
  @inlinable
  mutating func reserveGrowing(_ count: Int) {
    guard count > capacity else { return }
    reserveCapacity(Swift.max(count, capacity * 2))
  }
}
