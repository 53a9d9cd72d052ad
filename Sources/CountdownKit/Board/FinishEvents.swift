/// Fans the IDs of finished rows out to async sequences and main-actor handlers.
///
/// A row's completion is two deliveries, both made by the engine after it let go of its lock: a yield
/// to the sequences (through its outbox) and a call of the handlers in its main-actor hop of that
/// wake-up, after the slots' renders.
final class FinishEvents<ID: Sendable>: Sendable {
  private struct State {
    var streams: [UInt64: AsyncStream<ID>.Continuation] = [:]
    /// The handlers, in the order they were added, each with its key.
    var handlers: [(key: UInt64, handler: @MainActor @Sendable (ID) -> Void)] = []
    var nextKey: UInt64 = 0
    /// Whether the board is gone and its last row finished: new sequences end at once.
    var isOver = false

    mutating func takeKey() -> UInt64 {
      defer { nextKey += 1 }
      return nextKey
    }
  }

  private let state = Lock(State())

  /// A new sequence of the IDs of rows that finish from now on.
  func subscribe() -> AsyncStream<ID> {
    let (stream, continuation) = AsyncStream.makeStream(of: ID.self)
    let key = state.withLock { state -> UInt64? in
      guard !state.isOver else { return nil }
      let key = state.takeKey()
      state.streams[key] = continuation
      return key
    }
    guard let key else {
      continuation.finishUnlocked()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.streams.removeValue(forKey: key) }
    }
    return stream
  }

  /// Adds a main-actor handler; returns what removes it.
  func add(_ handler: @escaping @MainActor @Sendable (ID) -> Void) -> BoardObservation {
    let key = state.withLock { state in
      let key = state.takeKey()
      state.handlers.append((key, handler))
      return key
    }
    return BoardObservation { [weak self] in
      let removed = self?.state.withLock { state in
        state.handlers.firstIndex { $0.key == key }.map { state.handlers.remove(at: $0).handler }
      }
      // Let go of after the lock: what the handler captures (an observation) may take a lock as it goes.
      withExtendedLifetime(removed) {}
    }
  }

  /// The number of sequences subscribed.
  var subscriberCount: Int { state.withLock { $0.streams.count } }

  /// Tells the sequences that row `id` finished (after letting go of the lock).
  func yield(_ id: ID) {
    for continuation in state.withLock({ Array($0.streams.values) }) { continuation.yieldUnlocked(id) }
  }

  /// Tells the handlers that row `id` finished; a handler removed meanwhile (by another one) is not
  /// called.
  @MainActor
  func runHandlers(_ id: ID) {
    let handlers = state.withLock { $0.handlers }
    for (key, handler) in handlers {
      guard state.withLock({ $0.handlers.contains { $0.key == key } }) else { continue }
      handler(id)
    }
  }

  /// Ends every sequence: the board is gone and has no row left to finish.
  func end() {
    let streams = state.withLock { state in
      state.isOver = true
      defer { state.streams = [:] }
      return Array(state.streams.values)
    }
    for continuation in streams { continuation.finishUnlocked() }
  }

  deinit {
    for continuation in state.withLock({ $0.streams.values }) { continuation.finishUnlocked() }
  }
}
