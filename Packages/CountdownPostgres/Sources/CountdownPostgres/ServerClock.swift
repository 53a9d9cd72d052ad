import CountdownKit
import Foundation
import Logging
import PostgresNIO

/// Keeps a worker's engine on the server's clock: the best of five timed reads of `clock_timestamp()`
/// (Cristian's method, through `ServerTimeEstimator`), measured afresh on every new connection and
/// every ``DeadlineExpiryWorker/clockInterval``, since the local clock drifts or is set while the worker
/// runs. (Claims never depend on it for correctness: the server checks `ends_at <= now()`; a wrong
/// offset only makes the worker claim too early, be refused and retry, or too late.)
final class ServerClock: Sendable {
  let engine: CountdownEngine<ContinuousClock>
  let report: @Sendable (ExpiryEvent) -> Void
  /// The statement that reads the server's clock (tests give one that reads a skewed clock).
  let query: String

  init(
    engine: CountdownEngine<ContinuousClock>, query: String = "SELECT clock_timestamp()",
    report: @escaping @Sendable (ExpiryEvent) -> Void
  ) {
    self.engine = engine
    self.query = query
    self.report = report
  }

  /// Measures the offset on `connection` and sets the engine's reference offset to it.
  func measure(on connection: PostgresConnection, logger: Logger) async throws {
    var estimator = ServerTimeEstimator<ContinuousClock.Instant>()
    for _ in 0..<5 {
      let sent = ContinuousClock.now
      var serverDate: Date?
      for try await date in try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: query), logger: logger)
        .decode(Date.self)
      {
        serverDate = date
      }
      let received = ContinuousClock.now
      guard let serverDate else { continue }
      try estimator.add(.init(sent: sent, serverDate: serverDate, received: received))
    }
    guard let estimate = try estimator.estimate(against: engine.timeline) else { return }
    try engine.setReferenceOffset(estimate.offset)
    report(.clockSynchronized(offset: estimate.offset, uncertainty: estimate.uncertainty))
  }
}
