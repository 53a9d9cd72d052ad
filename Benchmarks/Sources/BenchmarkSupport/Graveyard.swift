import Synchronization

/// Where stopped contenders built on Foundation timers are kept until the process exits.
///
/// Releasing their timers or pipelines would invalidate each timer, which CFRunLoop does with a
/// linear search (minutes for 100,000 of them): that is teardown, not what is measured, so the
/// benchmark skips it. Scenario 4 measures the real cost of cancelling.
enum Graveyard {
  private static let kept = Mutex<[any Contender]>([])

  /// Keeps `contender` alive for good.
  static func keep(_ contender: any Contender) {
    kept.withLock { $0.append(contender) }
  }
}
