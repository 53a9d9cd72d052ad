import Synchronization

/// A count shared between threads (timer callbacks increment it, the runner reads it).
final class Counter: Sendable {
  private let storage = Atomic<Int>(0)

  /// Adds one.
  func increment() {
    storage.add(1, ordering: .relaxed)
  }

  /// The count so far.
  var value: Int { storage.load(ordering: .relaxed) }
}
