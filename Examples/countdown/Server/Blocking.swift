import Dispatch
import Synchronization

/// Runs `body` to its end from synchronous code (the board's subcommands and ``OrderSource`` are
/// synchronous, as SQLite is): the body runs on the concurrency pool while this thread waits, so it
/// must not need the thread that waits (the PostgreSQL client runs on its own threads).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let done = DispatchSemaphore(value: 0)
  let box = ResultBox<T>()
  Task.detached {
    do {
      box.set(.success(try await body()))
    } catch {
      box.set(.failure(error))
    }
    done.signal()
  }
  done.wait()
  return try box.get()
}

/// The result of a ``blocking(_:)`` body, handed from the pool to the waiting thread.
private final class ResultBox<T: Sendable>: Sendable {
  private let result = Mutex<Result<T, any Error>?>(nil)

  func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }

  func get() throws -> T {
    guard let value = result.withLock({ $0 }) else {
      preconditionFailure("Internal inconsistency: a blocking call returned before its body ended")
    }
    return try value.get()
  }
}
