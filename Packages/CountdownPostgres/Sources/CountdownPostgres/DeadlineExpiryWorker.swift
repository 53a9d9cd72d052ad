import CountdownKit
import Foundation
public import Logging
import PostgresNIO

/// One worker of a fleet that expires the rows of a ``DeadlineTable`` exactly once, never early, and
/// runs a follow-up for each at least once, however many workers run and whichever of them crash.
///
/// ```swift
/// let worker = DeadlineExpiryWorker(location: location, table: try DeadlineTable(name: "orders"))
/// try await worker.run { expired in try await cancelOrder(expired.id) }
/// ```
///
/// **No polling.** The worker follows the table with a ``PostgresDeadlineFollower`` and puts every row
/// that needs a worker on a `CountdownBoard` of a `CountdownEngine`, which sleeps until the next
/// deadline (``ExpiryPlan`` says which date each row counts to); rows held by a lease wait in a heap
/// behind one countdown for the earliest lease end. The engine's clock is set to the
/// server's (a `ServerTimeEstimator` over `clock_timestamp()`), measured again every ``clockInterval``
/// and on every new connection, so the board counts to the server's time even as the local clock drifts.
///
/// **Exactly-once expiry.** When rows finish on the board, the worker claims them in bounded batches
/// (at most ``claimBatch`` rows per statement, in an order of its own, so that workers share a burst
/// instead of racing for the same rows): `SELECT … FOR UPDATE SKIP LOCKED` of the finished ids whose
/// deadline has passed *by the server's clock* (`ends_at <= now()`, so never early), and an `UPDATE` that
/// sets `expired_at` (kept if already set), a lease (`lease_until`, counted from the server's clock as
/// the row is updated) and the attempt count, and logs the attempt, in the same transaction. Two workers
/// cannot both lock a row, and one that locks it after the other committed finds it no longer claimable:
/// one of them wins, once. A claim statement that runs longer than half a lease (or half a heartbeat
/// interval) is cancelled by the server, so a claim commits with its lease ahead of it; one whose answer
/// took nearly a lease to come back is not run here (the next attempt takes it over).
///
/// **At-least-once follow-up.** The winner runs `followUp` (at most ``concurrency`` at once; it claims
/// about as many rows as it can start within a second, so a slow follow-up leaves the rest to other
/// workers), extends the leases of every row it holds, together, every third of a lease, and records
/// `followed_up_at` for finished follow-ups in batches. A worker killed in between leaves `lease_until`
/// to run out; every worker's board counts to it, and the first to claim the row then runs the
/// follow-up again (attempt 2, and so on). A follow-up that throws shortens the lease to
/// ``failureDelay``, so it is retried soon.
///
/// **Liveness.** The follower's heartbeat notices a silent connection within ``heartbeatInterval``;
/// the claims connection is checked as often when idle, and every use of it has the same deadline.
///
/// Paused rows are left alone; a moved deadline is a new deadline (the table's trigger clears the
/// expiry), counted to at once by every worker.
public final class DeadlineExpiryWorker: Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The table of deadlines.
  public let table: DeadlineTable
  /// This worker's name, recorded with each attempt.
  public let name: String
  /// How long a claim holds a row's follow-up before another worker may take it over (extended while
  /// the worker holds the row, so only a dead or stuck worker loses it).
  public let lease: Duration
  /// How soon a follow-up that threw is retried.
  public let failureDelay: Duration
  /// How many follow-ups run at once.
  public let concurrency: Int
  /// The most rows one claim statement takes (and one statement records as followed up).
  public let claimBatch: Int
  /// How long the server may stay silent before a connection counts as dead.
  public let heartbeatInterval: Duration
  /// How often the worker measures the server's clock again (it also does on every new connection).
  public let clockInterval: Duration
  /// How late the engine may wake for a deadline (its coalescing tolerance).
  public let tolerance: Duration
  /// The name of the worker's connections in `pg_stat_activity` (the claims connection adds `-claims`).
  public let applicationName: String
  let logger: Logger
  /// The statement that reads the server's clock (tests give one that reads a skewed clock).
  let clockQuery: String

  /// A worker on `table` at `location`.
  public convenience init(
    location: PostgresLocation, table: DeadlineTable, name: String = DeadlineExpiryWorker.defaultName(),
    lease: Duration = .seconds(60), failureDelay: Duration = .seconds(10), concurrency: Int = 16,
    claimBatch: Int = 500, heartbeatInterval: Duration = .seconds(3), clockInterval: Duration = .seconds(60),
    tolerance: Duration = .milliseconds(20), applicationName: String = "countdown-expire", logger: Logger = .quiet
  ) {
    self.init(
      location: location, table: table, name: name, lease: lease, failureDelay: failureDelay,
      concurrency: concurrency, claimBatch: claimBatch, heartbeatInterval: heartbeatInterval,
      clockInterval: clockInterval, tolerance: tolerance, applicationName: applicationName, logger: logger,
      clockQuery: "SELECT clock_timestamp()")
  }

  /// A worker that reads the server's clock with `clockQuery` (a statement returning a `timestamptz`).
  package init(
    location: PostgresLocation, table: DeadlineTable, name: String, lease: Duration, failureDelay: Duration,
    concurrency: Int, claimBatch: Int, heartbeatInterval: Duration, clockInterval: Duration, tolerance: Duration,
    applicationName: String, logger: Logger, clockQuery: String
  ) {
    self.location = location
    self.table = table
    self.name = name
    self.lease = max(lease, .seconds(1))
    self.failureDelay = max(failureDelay, .milliseconds(100))
    self.concurrency = max(1, concurrency)
    self.claimBatch = max(1, claimBatch)
    self.heartbeatInterval = max(heartbeatInterval, .milliseconds(100))
    self.clockInterval = max(clockInterval, .milliseconds(100))
    self.tolerance = tolerance
    self.applicationName = applicationName
    self.logger = logger
    self.clockQuery = clockQuery
  }

  /// `host:pid`, the default worker name.
  public static func defaultName() -> String {
    "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
  }

  /// Works until the task is cancelled: follows the table, claims rows as their deadlines pass and
  /// runs `followUp` for each row it claims, reporting what happens to `events`.
  ///
  /// - Throws: ``PostgresDeadlineError`` when the first connection fails (unreachable, refused, no
  ///   table) or a later failure cannot be fixed by reconnecting.
  public func run(
    events: @escaping @Sendable (ExpiryEvent) -> Void = { _ in },
    followUp: @escaping @Sendable (ExpiredDeadline) async throws -> Void
  ) async throws(PostgresDeadlineError) {
    let engine = CountdownEngine(tolerance: tolerance)
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: .seconds)
    let finished = board.finished()
    let coordinator = ExpiryCoordinator(board: board, engine: engine)
    let leasesEnded = coordinator.leaseTimer.finished()
    let clock = ServerClock(engine: engine, query: clockQuery, report: events)
    let claims = ClaimConnection(
      location: location, applicationName: applicationName + "-claims", timeout: heartbeatInterval,
      statementTimeout: min(lease / 2, heartbeatInterval / 2), clock: clock, logger: logger)
    do {
      try await claims.check(unlessAnsweredWithin: .zero)
    } catch {
      throw .wrapping(error, at: location, doing: "connecting")
    }
    let follower = PostgresDeadlineFollower(
      location: location, table: table, heartbeatInterval: heartbeatInterval, applicationName: applicationName,
      logger: logger)
    let held = HeldRows()
    let marks = Inbox<ExpiredDeadline>()
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          try await follower.run { change in
            await coordinator.apply(change)
            switch change {
            case .caughtUp: events(.ready(pending: await coordinator.pendingCount))
            case .interrupted(let error): events(.interrupted(error))
            case .upserted, .removed, .reloading: break
            }
          }
        }
        group.addTask {
          try await self.claimLoop(
            finished, coordinator: coordinator, claims: claims, held: held, marks: marks,
            events: events, followUp: followUp)
        }
        group.addTask { try await self.recordLoop(marks, coordinator: coordinator, claims: claims, held: held, events) }
        group.addTask { try await self.keepLoop(claims: claims, held: held, events) }
        group.addTask {
          for await _ in leasesEnded { await coordinator.leasesEnded() }
        }
        defer { group.cancelAll() }
        try await group.next()
      }
    } catch let error as PostgresDeadlineError {
      throw error
    } catch {
      throw .wrapping(error, at: location, doing: "expiring \(table.name)")
    }
    await claims.close()
  }

  /// Keeps the claims connection alive and the worker's leases and clock fresh: checks the connection
  /// every half heartbeat interval (unless it answered meanwhile), extends the leases of the rows held
  /// every third of a lease, and measures the server's clock every ``clockInterval``.
  private func keepLoop(claims: ClaimConnection, held: HeldRows, _ events: @escaping @Sendable (ExpiryEvent) -> Void)
    async throws
  {
    let tick = min(heartbeatInterval / 2, lease / 3)
    var lastExtended = ContinuousClock.now
    var lastMeasured = ContinuousClock.now
    while true {
      try await Task.sleep(for: tick)
      do {
        if ContinuousClock.now - lastMeasured >= clockInterval {
          lastMeasured = .now
          try await claims.synchronizeClock()
        }
        if ContinuousClock.now - lastExtended >= lease / 3 {
          lastExtended = .now
          try await claims.extendLeases(of: held.all, in: table, by: lease)
        }
        try await claims.check(unlessAnsweredWithin: heartbeatInterval / 2)
      } catch {
        if Task.isCancelled { throw CancellationError() }
        events(.interrupted(.wrapping(error, at: location, doing: "keeping the claims connection")))
      }
    }
  }
}
