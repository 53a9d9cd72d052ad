public import CountdownKitShims

/// A board's rows by ID: an open-addressing hash table of engine row numbers, 4 bytes a bucket.
///
/// The IDs themselves live in the board's column indexed by row (``BoardRows/ids``), so a bucket holds
/// only a row number, and a lookup compares the ID found there. Linear probing, at most 3/4 full,
/// backward-shift deletion (no tombstones). Hashes come from the standard library's per-process seeded
/// `Hasher`, so that IDs chosen by someone else cannot make lookups slow on purpose.
@usableFromInline
package struct BoardIndex: Sendable {
  @inlinable static var empty: UInt32 { .max }

  @usableFromInline var buckets: [UInt32] = []
  /// The number of rows held.
  @usableFromInline package var count = 0

  @inlinable package init() {}

  @inlinable var mask: Int { buckets.count - 1 }

  @inlinable func home<ID: Hashable>(of id: ID) -> Int { id.hashValue & mask }

  /// The row of `id`, if the board has one.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  package func row<ID: Hashable>(of id: ID, ids: [ID]) -> Int? {
    guard !buckets.isEmpty else { return nil }
    var bucket = home(of: id)
    while buckets[bucket] != Self.empty {
      let row = Int(buckets[bucket])
      if ids[row] == id { return row }
      bucket = (bucket + 1) & mask
    }
    return nil
  }

  /// Adds `row` under `id`, which must not be there yet.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  package mutating func insert<ID: Hashable>(_ row: Int, for id: ID, ids: [ID]) {
    if (count + 1) * 4 > buckets.count * 3 { grow(to: Swift.max(16, buckets.count * 2), ids: ids) }
    place(UInt32(row), home: home(of: id))
    count += 1
  }

  /// Removes `id`'s entry, returning its row.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  @discardableResult
  package mutating func remove<ID: Hashable>(_ id: ID, ids: [ID]) -> Int? {
    guard !buckets.isEmpty else { return nil }
    var bucket = home(of: id)
    while buckets[bucket] != Self.empty {
      let row = Int(buckets[bucket])
      if ids[row] == id {
        buckets[bucket] = Self.empty
        shiftBack(after: bucket, ids: ids)
        count -= 1
        return row
      }
      bucket = (bucket + 1) & mask
    }
    return nil
  }

  /// Asks the processor to fetch the bucket where `id` is looked for first, without waiting for it:
  /// done for a row some places ahead of the one being placed, the buckets' cache misses overlap.
  @inlinable
  package func prefetch<ID: Hashable>(_ id: ID) {
    buckets.withUnsafeBufferPointer { buckets in
      guard let base = buckets.baseAddress, !buckets.isEmpty else { return }
      countdownkit_prefetch(base + home(of: id))
    }
  }

  /// Makes room for `additional` more rows without growing on the way.
  @inlinable
  package mutating func reserve<ID: Hashable>(_ additional: Int, ids: [ID]) {
    var size = Swift.max(buckets.count, 16)
    while (count + additional) * 4 > size * 3 { size *= 2 }
    if size > buckets.count { grow(to: size, ids: ids) }
  }

  /// Every row held, in no particular order.
  @inlinable
  package var rows: [Int] {
    buckets.compactMap { $0 == Self.empty ? nil : Int($0) }
  }

  /// Forgets every row.
  @inlinable
  package mutating func removeAll() {
    buckets = []
    count = 0
  }

  @inlinable mutating func place(_ row: UInt32, home: Int) {
    var bucket = home
    while buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
    buckets[bucket] = row
  }

  /// After emptying `hole`, moves back the entries of its probe run that would no longer be found.
  @inlinable mutating func shiftBack<ID: Hashable>(after hole: Int, ids: [ID]) {
    var hole = hole
    var bucket = (hole + 1) & mask
    while buckets[bucket] != Self.empty {
      let wanted = home(of: ids[Int(buckets[bucket])])
      // The entry may move into the hole if its home is not within (hole, bucket], cyclically.
      let distanceToBucket = (bucket - wanted) & mask
      let distanceToHole = (hole - wanted) & mask
      if distanceToHole < distanceToBucket {
        buckets[hole] = buckets[bucket]
        buckets[bucket] = Self.empty
        hole = bucket
      }
      bucket = (bucket + 1) & mask
    }
  }

  @inlinable mutating func grow<ID: Hashable>(to size: Int, ids: [ID]) {
    let old = buckets
    buckets = Array(repeating: Self.empty, count: size)
    for row in old where row != Self.empty { place(row, home: home(of: ids[Int(row)])) }
  }
}
