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

/// The capacity that storage with room for `capacity` elements grows to when it must hold `count`: at
/// least double (and 16), but no more than `limit` while `limit` holds `count` — a column or a heap beside
/// rows reserved for `limit` ends no larger than they are; past `limit` (or with 0), doubling goes on.
func grownCapacity(from capacity: Int, toHold count: Int, limit: Int) -> Int {
  let doubled = Swift.max(16, capacity * 2)
  return Swift.max(count, limit >= count ? Swift.min(doubled, limit) : doubled)
}
