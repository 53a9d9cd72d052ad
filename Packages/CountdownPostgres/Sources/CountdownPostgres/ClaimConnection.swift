import CountdownKit
import Foundation
import Logging
import PostgresNIO

/// The connection a worker claims rows and records follow-ups through; it reconnects on the next use
/// after a failure.
actor ClaimConnection {
  let location: PostgresLocation
  let applicationName: String
  let logger: Logger
  private var connection: PostgresConnection?

  init(location: PostgresLocation, applicationName: String, logger: Logger) {
    self.location = location
    self.applicationName = applicationName
    self.logger = logger
  }

  /// The open connection, connecting first if there is none or it closed.
  private func open() async throws -> PostgresConnection {
    if let connection, !connection.isClosed { return connection }
    connection?.closeKeepingAlive()
    let fresh = try await location.connect(applicationName: applicationName, logger: logger)
    connection = fresh
    return fresh
  }

  /// Runs `query`, forgetting the connection if that fails (the next use reconnects).
  @discardableResult
  func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
    let connection = try await open()
    do {
      return try await connection.queryUnlessClosed(query, logger: logger)
    } catch {
      if connection.isClosed { self.connection = nil }
      throw error
    }
  }

  func close() async {
    _ = try? await connection?.close()
    connection = nil
  }

  deinit {
    connection?.closeKeepingAlive()
  }

  /// Sets `engine`'s reference offset to the server's clock: the best of five timed reads of
  /// `clock_timestamp()` (Cristian's method, through `ServerTimeEstimator`).
  func synchronizeClock(of engine: CountdownEngine<ContinuousClock>) async throws(PostgresDeadlineError) {
    var estimator = ServerTimeEstimator<ContinuousClock.Instant>()
    do {
      for _ in 0..<5 {
        let sent = ContinuousClock.now
        var serverDate: Date?
        for try await date in try await query("SELECT clock_timestamp()").decode(Date.self) { serverDate = date }
        let received = ContinuousClock.now
        guard let serverDate else { continue }
        try estimator.add(.init(sent: sent, serverDate: serverDate, received: received))
      }
      if let estimate = try estimator.estimate(against: engine.timeline) {
        try engine.setReferenceOffset(estimate.offset)
      }
    } catch {
      throw .wrapping(error, at: location, doing: "reading the server's clock")
    }
  }
}
