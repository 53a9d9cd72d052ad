import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresConnection {
  /// Closes the connection without waiting, keeping it alive until it is closed (postgres-nio asserts
  /// that a connection is closed before it goes away).
  func closeKeepingAlive() {
    close().whenComplete { _ in _ = self }
  }

  /// The error of a query on a closed connection.
  static let closed = PostgresDeadlineError(.unreachable, "The connection to the server was closed.")

  /// Runs `query`, failing as soon as the connection is closed.
  ///
  /// postgres-nio 1.33 hands a query to a channel that may already be closed without a promise, and
  /// such a query never completes (nor can it be cancelled): a follower whose connection the server
  /// ended could wait forever. Racing the query against the channel's close avoids that; the query's
  /// own task, if it hangs, is left behind suspended (it holds no thread).
  @discardableResult
  func queryUnlessClosed(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
    if isClosed { throw Self.closed }
    return try await withCheckedThrowingContinuation { continuation in
      let outcome = FirstOutcome(continuation)
      closeFuture.whenComplete { _ in outcome.resume(throwing: Self.closed) }
      Task {
        do {
          outcome.resume(returning: try await self.query(query, logger: logger))
        } catch {
          outcome.resume(throwing: error)
        }
      }
    }
  }

  /// Runs `body` (queries on this connection, their rows read to the end), giving up after `timeout`:
  /// then the connection is closed (a server that does not answer within it is taken for dead) and
  /// `timedOut` is thrown. The body's task, if it hangs, is left behind suspended until the close ends it.
  func within<T: Sendable>(
    _ timeout: Duration, else timedOut: PostgresDeadlineError, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = FirstOutcome(continuation)
      let timer = Task {
        try await Task.sleep(for: timeout)
        outcome.resume(throwing: timedOut)
        self.closeKeepingAlive()
      }
      Task {
        do {
          let value = try await body()
          timer.cancel()
          outcome.resume(returning: value)
        } catch {
          timer.cancel()
          outcome.resume(throwing: error)
        }
      }
    }
  }
}

/// Resumes a continuation with the first outcome offered, ignoring the others.
final class FirstOutcome<Value: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

  init(_ continuation: CheckedContinuation<Value, any Error>) {
    self.continuation = Mutex(continuation)
  }

  func resume(returning value: Value) {
    continuation.withLock { $0.take() }?.resume(returning: value)
  }

  func resume(throwing error: any Error) {
    continuation.withLock { $0.take() }?.resume(throwing: error)
  }
}
