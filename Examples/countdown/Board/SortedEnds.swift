/// A sorted multiset of instants (seconds since a reference date): how many fall at or before an
/// instant, and the first after one, in O(log n + n / chunkLimit + chunkLimit); an insert or a removal
/// moves the entries of one chunk only.
///
/// Each distinct value is kept once with how many times it occurs, in chunks of at most ``chunkLimit``
/// distinct values: 12 bytes per distinct value in full chunks (built from an array at once), up to
/// twice that in chunks that inserts split in halves. Deadlines cluster (stored to the second, or on
/// the same slots), so a million windows over a day hold at most 86,400 distinct ends. A removal that
/// empties a chunk drops it; chunks are not merged otherwise.
struct SortedEnds: Sendable {
  /// The most distinct values a chunk holds: inserting a new one into a full chunk splits it.
  static let chunkLimit = 1_024

  /// Distinct values in order, with how many times each occurs.
  private struct Chunk: Sendable {
    var values: [Double]
    var counts: [UInt32]
    /// The sum of `counts`.
    var total: Int
  }

  /// Sorted, each non-empty; every value of a chunk is below every value of the next.
  private var chunks: [Chunk] = []
  /// The number of values, each occurrence counted.
  private(set) var count = 0

  /// No values.
  init() {}

  /// The values of `values` (any order, duplicates kept), sorted once into full chunks.
  init(_ values: consuming [Double]) {
    values.sort()
    count = values.count
    var chunk = Chunk(values: [], counts: [], total: 0)
    for value in values {
      if let last = chunk.values.last, last == value {
        chunk.counts[chunk.counts.count - 1] += 1
      } else {
        if chunk.values.count == Self.chunkLimit {
          chunks.append(chunk)
          chunk = Chunk(values: [], counts: [], total: 0)
        }
        chunk.values.append(value)
        chunk.counts.append(1)
      }
      chunk.total += 1
    }
    if chunk.total > 0 { chunks.append(chunk) }
  }

  /// The values in order, each as many times as it occurs (for tests).
  var values: [Double] {
    chunks.flatMap { chunk in
      zip(chunk.values, chunk.counts).flatMap { repeatElement($0, count: Int($1)) }
    }
  }

  /// How many chunks hold the values (for tests).
  var chunkCount: Int { chunks.count }

  /// Adds `value`.
  mutating func insert(_ value: Double) {
    count += 1
    guard !chunks.isEmpty else {
      chunks.append(Chunk(values: [value], counts: [1], total: 1))
      return
    }
    // The first chunk whose largest value is at least `value`, or the last chunk.
    let index = min(firstChunk { $0 >= value }, chunks.count - 1)
    chunks[index].total += 1
    let position = Self.firstIndex(in: chunks[index].values) { $0 >= value }
    if position < chunks[index].values.count, chunks[index].values[position] == value {
      chunks[index].counts[position] += 1
      return
    }
    chunks[index].values.insert(value, at: position)
    chunks[index].counts.insert(1, at: position)
    if chunks[index].values.count > Self.chunkLimit {
      let half = Self.chunkLimit / 2
      let upper = Chunk(
        values: Array(chunks[index].values[half...]), counts: Array(chunks[index].counts[half...]),
        total: chunks[index].counts[half...].reduce(0) { $0 + Int($1) })
      chunks[index].values.removeSubrange(half...)
      chunks[index].counts.removeSubrange(half...)
      chunks[index].total -= upper.total
      chunks.insert(upper, at: index + 1)
    }
  }

  /// Removes one occurrence of `value`; false (and nothing changed) if there is none.
  @discardableResult
  mutating func remove(_ value: Double) -> Bool {
    let index = firstChunk { $0 >= value }
    guard index < chunks.count else { return false }
    let position = Self.firstIndex(in: chunks[index].values) { $0 >= value }
    guard position < chunks[index].values.count, chunks[index].values[position] == value else { return false }
    count -= 1
    chunks[index].total -= 1
    if chunks[index].counts[position] > 1 {
      chunks[index].counts[position] -= 1
    } else if chunks[index].total == 0 {
      chunks.remove(at: index)
    } else {
      chunks[index].values.remove(at: position)
      chunks[index].counts.remove(at: position)
    }
    return true
  }

  /// How many values are at most `limit`.
  func count(atMost limit: Double) -> Int {
    let index = firstChunk { $0 > limit }
    var total = 0
    for chunk in chunks[..<index] { total += chunk.total }
    if index < chunks.count {
      let chunk = chunks[index]
      let end = Self.firstIndex(in: chunk.values) { $0 > limit }
      for occurrences in chunk.counts[..<end] { total += Int(occurrences) }
    }
    return total
  }

  /// The smallest value above `limit`, if any.
  func first(after limit: Double) -> Double? {
    let index = firstChunk { $0 > limit }
    guard index < chunks.count else { return nil }
    return chunks[index].values[Self.firstIndex(in: chunks[index].values) { $0 > limit }]
  }

  /// The index of the first chunk whose largest value satisfies `isAbove` (a predicate that is false
  /// and then true along the sorted values), or `chunks.count`.
  private func firstChunk(where isAbove: (Double) -> Bool) -> Int {
    Self.partition(chunks.count) { index in
      let values = chunks[index].values
      return isAbove(values[values.count - 1])
    }
  }

  /// The index of the first of `values` that satisfies `isAbove`, or `values.count`.
  private static func firstIndex(in values: [Double], where isAbove: (Double) -> Bool) -> Int {
    partition(values.count) { isAbove(values[$0]) }
  }

  /// The first index in `0..<count` at which `isAbove` holds (false, then true along the indices), or
  /// `count`: a binary search.
  private static func partition(_ count: Int, where isAbove: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isAbove(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
