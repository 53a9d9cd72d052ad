import Foundation
import Logging
import PostgresNIO

/// The connection a worker claims rows and records follow-ups through. Every use has a deadline: a
/// server that does not answer within ``timeout`` is taken for dead, the connection closed, and the next
/// use reconnects (measuring the server's clock again). The server itself cancels a statement that runs
/// longer than ``statementTimeout``, so that no claim can run long enough to eat its own lease.
actor ClaimConnection {
  let location: PostgresLocation
  let applicationName: String
  let logger: Logger
  /// How long a use may wait for the server before the connection counts as dead.
  let timeout: Duration
  /// `statement_timeout` on the server.
  let statementTimeout: Duration
  /// Measured on every new connection.
  let clock: ServerClock?
  private var connection: PostgresConnection?
  private var opening: Task<PostgresConnection, any Error>?
  /// When the connection last answered.
  private(set) var lastAnswer = ContinuousClock.now

  init(
    location: PostgresLocation, applicationName: String, timeout: Duration, statementTimeout: Duration,
    clock: ServerClock?, logger: Logger
  ) {
    self.location = location
    self.applicationName = applicationName
    self.timeout = timeout
    self.statementTimeout = statementTimeout
    self.clock = clock
    self.logger = logger
  }

  /// Runs `body` on the open connection (connecting first if there is none or it closed) within
  /// ``timeout``; a failure that closed the connection makes the next use reconnect.
  func run<T: Sendable>(_ action: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws -> T
  {
    let connection = try await open()
    do {
      let value = try await connection.within(timeout, else: silence(action)) { try await body(connection) }
      lastAnswer = .now
      return value
    } catch {
      if connection.isClosed, self.connection === connection { self.connection = nil }
      throw error
    }
  }

  /// Runs a statement whose rows are ignored.
  func execute(_ action: String, _ query: PostgresQuery) async throws {
    let logger = logger
    try await run(action) { connection in
      for try await _ in try await connection.queryUnlessClosed(query, logger: logger) {}
    }
  }

  /// Checks that the connection answers (connecting if needed), unless it answered within `recently`.
  func check(unlessAnsweredWithin recently: Duration) async throws {
    if connection != nil, ContinuousClock.now - lastAnswer < recently { return }
    try await execute("checking the connection", "SELECT 1")
  }

  /// Measures the server's clock now.
  func synchronizeClock() async throws {
    guard let clock else { return }
    let logger = logger
    try await run("reading the server's clock") { connection in try await clock.measure(on: connection, logger: logger)
    }
  }

  func close() async {
    opening?.cancel()
    _ = try? await connection?.close()
    connection = nil
  }

  deinit {
    connection?.closeKeepingAlive()
  }

  /// The open connection, connecting first if there is none or it closed (one connect at a time).
  private func open() async throws -> PostgresConnection {
    if let connection, !connection.isClosed { return connection }
    connection?.closeKeepingAlive()
    connection = nil
    if let opening { return try await opening.value }
    let task = Task { try await self.connect() }
    opening = task
    defer { opening = nil }
    let fresh = try await task.value
    connection = fresh
    lastAnswer = .now
    return fresh
  }

  /// A new connection with the session's settings, the server's clock measured on it.
  private func connect() async throws -> PostgresConnection {
    let fresh = try await location.connect(applicationName: applicationName, logger: logger)
    let (logger, clock) = (logger, clock)
    var binds = PostgresBindings()
    binds.append(String(Int(statementTimeout.timeInterval * 1_000)))
    binds.append(String(Int(max(timeout.timeInterval, 1) * 1_000)))
    let settings = PostgresQuery(
      unsafeSQL: """
        SELECT set_config('statement_timeout', $1, false), set_config('client_connection_check_interval', $2, false)
        """, binds: binds)
    do {
      try await fresh.within(timeout, else: silence("connecting")) {
        try await fresh.queryUnlessClosed(settings, logger: logger)
        try await clock?.measure(on: fresh, logger: logger)
      }
    } catch {
      // postgres-nio requires a connection to be closed before it goes away.
      fresh.closeKeepingAlive()
      throw error
    }
    return fresh
  }

  private func silence(_ action: String) -> PostgresDeadlineError {
    PostgresDeadlineError(
      .unreachable,
      "\(location) did not answer within \(PostgresDeadlineFollower.seconds(timeout)) while \(action): "
        + "the connection is taken for dead.")
  }
}
