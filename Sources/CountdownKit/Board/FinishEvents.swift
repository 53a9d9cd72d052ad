/// Fans the IDs of finished rows out to async sequences and main-actor handlers.
///
/// A row's completion is two deliveries, both made by the engine after it let go of its lock: a yield
/// to the sequences (through its outbox) and a call of the handlers in its main-actor hop of that
/// wake-up, after the slots' renders.
final class FinishEvents<ID: Sendable>: Sendable {
  private struct State {
    var streams: [UInt64: AsyncStream<ID>.Continuation] = [:]
    var nextKey: UInt64 = 0
    var handlers: [@MainActor @Sendable (ID) -> Void] = []
  }

  private let state = Lock(State())

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

  /// Tells the sequences that row `id` finished (after letting go of the lock).
  func yield(_ id: ID) {
    for continuation in state.withLock({ $0.streams.values }) { continuation.yieldUnlocked(id) }
  }

  /// Tells the handlers that row `id` finished.
  @MainActor
  func runHandlers(_ id: ID) {
    for handler in state.withLock({ $0.handlers }) { handler(id) }
  }

  deinit {
    for continuation in state.withLock({ $0.streams.values }) { continuation.finishUnlocked() }
  }
}
