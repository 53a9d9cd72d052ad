import Synchronization

/// Items received and not yet handled, taken all at once: while a follower reads the rows of one batch
/// of notifications (or a worker claims one batch of finished rows), the next batch gathers here.
final class Inbox<Item: Sendable>: Sendable {
  private struct State {
    var payloads: [Item] = []
    var waiter: CheckedContinuation<[Item], any Error>?
    var end: (any Error)?
    /// The reader's task was cancelled.
    var cancelled = false
  }

  private let state = Mutex(State())

  /// Adds a payload, waking the reader; returns how many wait now.
  @discardableResult
  func append(_ payload: Item) -> Int {
    let (waiter, count) = state.withLock { state -> (CheckedContinuation<[Item], any Error>?, Int) in
      guard let waiter = state.waiter else {
        state.payloads.append(payload)
        return (nil, state.payloads.count)
      }
      state.waiter = nil
      return (waiter, 0)
    }
    waiter?.resume(returning: [payload])
    return count
  }

  /// Ends the inbox: ``takeAll()`` returns what is left, then throws `error`.
  func finish(_ error: any Error) {
    let waiter = state.withLock { state -> CheckedContinuation<[Item], any Error>? in
      state.end = state.end ?? error
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(throwing: error)
  }

  /// Every payload received since the last call, in order, without waiting (empty if there is none).
  func takeAvailable() -> [Item] {
    state.withLock { state in
      defer { state.payloads.removeAll(keepingCapacity: true) }
      return state.payloads
    }
  }

  /// Every payload received since the last call, in order; waits for one if there is none.
  ///
  /// - Throws: The error the inbox was finished with, once nothing is left; `CancellationError` when the
  ///   reader's task is cancelled while it waits (and at every call after that). One reader at a time.
  func takeAll() async throws -> [Item] {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let result = state.withLock { state -> Result<[Item], any Error>? in
          if !state.payloads.isEmpty {
            defer { state.payloads.removeAll(keepingCapacity: true) }
            return .success(state.payloads)
          }
          if let end = state.end { return .failure(end) }
          if state.cancelled { return .failure(CancellationError()) }
          precondition(state.waiter == nil, "Internal inconsistency: two readers of one inbox")
          state.waiter = continuation
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<[Item], any Error>? in
        state.cancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
