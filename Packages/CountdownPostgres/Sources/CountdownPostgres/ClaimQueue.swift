/// The ids a worker wants to claim, each once, in an order of its own: new ids join in a random
/// order, so that workers whose boards finish the same rows at the same moment (a burst) claim
/// different rows first instead of racing for the same ones.
struct ClaimQueue {
  private var ids: [Int64] = []
  private var head = 0
  private var queued: Set<Int64> = []

  /// Whether no id waits.
  var isEmpty: Bool { head == ids.count }

  /// How many ids wait.
  var count: Int { ids.count - head }

  /// Queues the ids not already waiting, shuffled.
  mutating func add(_ new: [Int64]) {
    var fresh = new.filter { queued.insert($0).inserted }
    fresh.shuffle()
    ids += fresh
  }

  /// Takes up to `count` ids from the front.
  ///
  /// - Complexity: O(`count`), amortized.
  mutating func take(_ count: Int) -> [Int64] {
    let end = min(ids.count, head + max(0, count))
    let taken = Array(ids[head..<end])
    head = end
    for id in taken { queued.remove(id) }
    if head >= 4_096, head * 2 >= ids.count {
      ids.removeFirst(head)
      head = 0
    }
    return taken
  }
}
