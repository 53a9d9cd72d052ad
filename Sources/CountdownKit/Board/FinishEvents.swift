import Synchronization

/// Fans the IDs of finished rows out to async sequences and main-actor handlers.
///
/// `send` is called under the engine's lock: it only yields to streams and queues handler work, and
/// never calls back into the engine or the board.
final class FinishEvents<ID: Sendable>: Sendable {
  private struct State {
    var streams: [UInt64: AsyncStream<ID>.Continuation] = [:]
    var nextKey: UInt64 = 0
    var handlers: [@MainActor @Sendable (ID) -> Void] = []
    var pending: [ID] = []
    var drainScheduled = false
  }

  private let state = Mutex(State())

  func subscribe() -> AsyncStream<ID> {
    let (stream, continuation) = AsyncStream.makeStream(of: ID.self)
    let key = state.withLock { state in
      defer { state.nextKey += 1 }
      state.streams[state.nextKey] = continuation
      return state.nextKey
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.streams.removeValue(forKey: key) }
    }
    return stream
  }

  func add(_ handler: @escaping @MainActor @Sendable (ID) -> Void) {
    state.withLock { $0.handlers.append(handler) }
  }

  func send(_ id: ID) {
    let drain = state.withLock { state -> Bool in
      for continuation in state.streams.values { continuation.yield(id) }
      guard !state.handlers.isEmpty else { return false }
      state.pending.append(id)
      guard !state.drainScheduled else { return false }
      state.drainScheduled = true
      return true
    }
    if drain {
      Task { @MainActor in self.drain() }
    }
  }

  @MainActor
  private func drain() {
    let (ids, handlers) = state.withLock { state in
      state.drainScheduled = false
      defer { state.pending = [] }
      return (state.pending, state.handlers)
    }
    for id in ids {
      for handler in handlers { handler(id) }
    }
  }

  deinit {
    for continuation in state.withLock({ $0.streams.values }) { continuation.finish() }
  }
}
