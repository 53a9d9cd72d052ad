/// The rows of an edit-distance table, kept between words to spare allocations.
struct DistanceRows {
  private var older: [Int] = []
  private var previous: [Int] = []
  private var current: [Int] = []

  /// The edit distance of `a` and `b` (insertions, deletions, substitutions, swaps of neighbours), or
  /// `nil` when it is over `limit`.
  mutating func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
    guard abs(a.count - b.count) <= limit else { return nil }
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    let width = b.count + 1
    if older.count < width {
      older = [Int](repeating: 0, count: width)
      current = older
      previous = older
    }
    for j in 0...b.count { previous[j] = j }
    var previousMinimum = 0
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, older[j - 2] + 1) }
        current[j] = value
        rowMinimum = min(rowMinimum, value)
      }
      // A later row can only be reached from one of the last two (a swap reaches back two).
      guard min(rowMinimum, previousMinimum) <= limit else { return nil }
      previousMinimum = rowMinimum
      swap(&older, &previous)
      swap(&previous, &current)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
