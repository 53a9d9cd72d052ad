import Observation
import Synchronization

/// Counts `withObservationTracking` change notifications, which arrive on a `@Sendable` closure.
final class ObservationCounter: Sendable {
  private let count = Mutex(0)

  /// The notifications so far.
  var value: Int { count.withLock { $0 } }

  /// Records one notification.
  func record() { count.withLock { $0 += 1 } }

  /// The notifications since the last call, and starts again from zero.
  func take() -> Int {
    count.withLock { value in
      defer { value = 0 }; return value
    }
  }
}

/// Tracks what `read` reads, once: `counter` records the first change to any of it (as SwiftUI
/// invalidates a view once, then reads its body again).
@MainActor func trackOnce(_ counter: ObservationCounter, _ read: () -> Void) {
  withObservationTracking(read) { counter.record() }
}

/// Tracks what `read` reads, and tracks it again at every change from inside the notification:
/// `counter` records every single publication of those properties.
@MainActor func trackEveryPublication(_ counter: ObservationCounter, _ read: @escaping @MainActor () -> Void) {
  withObservationTracking(read) {
    counter.record()
    MainActor.assumeIsolated { trackEveryPublication(counter, read) }
  }
}
