import CountdownKit
public import CoreMetrics
import Foundation
public import Logging
import PostgresNIO
import Synchronization

/// One worker of a fleet that expires the rows of a ``DeadlineTable`` exactly once, never early, and
/// runs a follow-up for each at least once, however many workers run and whichever of them crash.
///
/// ```swift
/// let worker = DeadlineExpiryWorker(location: location, table: try DeadlineTable(name: "orders"))
/// try await worker.run { expired in try await cancelOrder(expired.id) }
/// ```
///
/// **No polling for what notifications bring.** The worker follows the table with a
/// ``PostgresDeadlineFollower`` and puts every row that needs a worker on a `CountdownBoard` of a
/// `CountdownEngine`, which sleeps until the next deadline (``ExpiryPlan`` says which date each row counts
/// to); rows held by a lease wait in a heap behind one countdown for the earliest lease end. The engine's
/// clock is set to the server's (a `ServerTimeEstimator` over `clock_timestamp()`), measured again every
/// ``clockInterval`` and on every new connection, so the board counts to the server's time even as the
/// local clock drifts.
///
/// **The table is the truth.** Every ``sweepInterval`` the worker also reads the rows that have needed
/// a worker for at least a sweep interval by the server's clock, by an index, one page of at most
/// ``claimBatch`` (the next sweep goes on from there): a row written without the table's triggers
/// (logical replication's apply, `session_replication_role = replica`, `pg_restore
/// --disable-triggers`), or a notification that never came, waits at most two sweep intervals. A claim reads back the rows it did not win, as they are
/// now, and the ids that are gone: those stop being claimed.
///
/// **Exactly-once expiry.** When rows finish on the board, the worker claims them in bounded batches
/// (at most ``claimBatch`` rows per statement, in an order of its own, so that workers share a burst
/// instead of racing for the same rows): `SELECT … FOR UPDATE SKIP LOCKED` of the finished ids whose
/// deadline has passed *by the server's clock* (`ends_at <= now()`, so never early), and an `UPDATE` that
/// sets `expired_at` (kept if already set), a lease (`lease_until`, counted from the server's clock as
/// the row is updated) and the attempt count, and logs the attempt, in the same transaction. Two workers
/// cannot both lock a row, and one that locks it after the other committed finds it no longer claimable:
/// one of them wins, once. A claim statement that runs longer than half a lease (or half a heartbeat
/// interval) is cancelled by the server, so a claim commits with its lease ahead of it.
///
/// **At-least-once follow-up, never two at once.** The winner runs `followUp` (at most ``concurrency``
/// at once; it claims about as many rows as it can start within a second, so a slow follow-up leaves
/// the rest to other workers) and extends the leases of every row it holds, together, every third of a
/// lease (every tick while extending fails). The worker knows how long each lease is sure to last (from
/// when the statement that set it was sent): when five sixths of a lease have passed since the last
/// extension that reached the server, or the lease is found gone (the row was moved, deleted or taken
/// over), it cancels that follow-up's task and reports ``ExpiryEvent/followUpAbandoned(_:_:)`` — before
/// the lease ends, so that no other worker's attempt starts while this one runs (as long as `followUp`
/// honours cancellation). A follow-up that runs longer than ``followUpTimeout`` is cancelled and counts as
/// failed. Finished follow-ups are recorded in batches, each on its own attempt: one whose row was moved
/// or taken over meanwhile is not recorded, and the row counts to its new state. A worker killed in
/// between leaves `lease_until` to run out; the first worker to claim the row then runs the follow-up
/// again (attempt 2, and so on).
///
/// **Retries.** A follow-up that throws (or times out) is retried after ``failureDelay``, doubled for each
/// further attempt up to ``maxRetryDelay``; after ``maxAttempts`` attempts the row is discarded
/// (`discarded_at`, visible to an operator, reported as ``ExpiryEvent/discarded(_:_:)``) and retried only
/// when an operator asks (``PostgresDeadlines/retryDiscarded(_:)``).
///
/// **Draining.** ``drain()`` makes ``run(events:followUp:)`` stop claiming, let running follow-ups finish
/// for up to ``drainGrace``, cancel the rest and give their leases back (other workers take them over at
/// once), record what finished, and return.
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
  /// the worker holds the row, so only a dead, stuck or cut-off worker loses it).
  public let lease: Duration
  /// How soon a follow-up that failed is retried the first time (doubled for each further attempt).
  public let failureDelay: Duration
  /// The longest wait between two attempts of a failing follow-up.
  public let maxRetryDelay: Duration
  /// How many attempts a follow-up gets before its row is discarded (counted since an operator last
  /// retried it).
  public let maxAttempts: Int
  /// How long a follow-up may run before it is cancelled and counted as failed (nil: no limit).
  public let followUpTimeout: Duration?
  /// How many follow-ups run at once.
  public let concurrency: Int
  /// The most rows one claim statement takes (and one statement records as followed up, and one sweep
  /// reads).
  public let claimBatch: Int
  /// How often the worker reads the rows that need a worker from the table itself.
  public let sweepInterval: Duration
  /// How long ``drain()`` lets running follow-ups finish before it cancels them.
  public let drainGrace: Duration
  /// How long the attempt log keeps the attempts of rows that are followed up or gone (nil: forever).
  public let attemptRetention: Duration?
  /// How long rows stay in the table once followed up (nil, the default: forever; they are the
  /// application's rows). Deleting them needs `DELETE` on the table.
  public let rowRetention: Duration?
  /// How long the server may stay silent before a connection counts as dead.
  public let heartbeatInterval: Duration
  /// How often the worker measures the server's clock again (it also does on every new connection).
  public let clockInterval: Duration
  /// How late the engine may wake for a deadline (its coalescing tolerance).
  public let tolerance: Duration
  /// The name of the worker's connections in `pg_stat_activity` (the claims connection adds `-claims`).
  public let applicationName: String
  let logger: Logger
  /// What the worker counts (``CountdownMetrics``).
  let metrics: CountdownMetrics
  /// The statement that reads the server's clock (tests give one that reads a skewed clock).
  let clockQuery: String
  /// Whether ``drain()`` was called, and what wakes the running ``run(events:followUp:)`` calls.
  let drainState = Mutex(DrainState())

  /// A worker on `table` at `location`.
  public convenience init(
    location: PostgresLocation, table: DeadlineTable, name: String = DeadlineExpiryWorker.defaultName(),
    lease: Duration = .seconds(60), failureDelay: Duration = .seconds(10), maxRetryDelay: Duration = .seconds(3_600),
    maxAttempts: Int = 10, followUpTimeout: Duration? = .seconds(300), concurrency: Int = 16, claimBatch: Int = 500,
    sweepInterval: Duration = .seconds(5), drainGrace: Duration = .seconds(30),
    attemptRetention: Duration? = .seconds(7 * 86_400), rowRetention: Duration? = nil,
    heartbeatInterval: Duration = .seconds(3),
    clockInterval: Duration = .seconds(60), tolerance: Duration = .milliseconds(20),
    applicationName: String = "countdown-expire", logger: Logger = .quiet, metrics: (any MetricsFactory)? = nil
  ) {
    self.init(
      location: location, table: table, name: name, lease: lease, failureDelay: failureDelay,
      maxRetryDelay: maxRetryDelay, maxAttempts: maxAttempts, followUpTimeout: followUpTimeout,
      concurrency: concurrency, claimBatch: claimBatch, sweepInterval: sweepInterval, drainGrace: drainGrace,
      attemptRetention: attemptRetention, rowRetention: rowRetention, heartbeatInterval: heartbeatInterval,
      clockInterval: clockInterval, tolerance: tolerance,
      applicationName: applicationName, logger: logger, metrics: metrics, clockQuery: "SELECT clock_timestamp()")
  }

  /// A worker that reads the server's clock with `clockQuery` (a statement returning a `timestamptz`).
  package init(
    location: PostgresLocation, table: DeadlineTable, name: String, lease: Duration, failureDelay: Duration,
    maxRetryDelay: Duration, maxAttempts: Int, followUpTimeout: Duration?, concurrency: Int, claimBatch: Int,
    sweepInterval: Duration, drainGrace: Duration, attemptRetention: Duration? = nil, rowRetention: Duration? = nil,
    heartbeatInterval: Duration, clockInterval: Duration,
    tolerance: Duration, applicationName: String, logger: Logger, metrics: (any MetricsFactory)? = nil,
    clockQuery: String
  ) {
    self.location = location
    self.table = table
    self.name = name
    self.lease = max(lease, .seconds(1))
    self.failureDelay = max(failureDelay, .milliseconds(100))
    self.maxRetryDelay = max(maxRetryDelay, self.failureDelay)
    self.maxAttempts = max(1, maxAttempts)
    self.followUpTimeout = followUpTimeout.map { max($0, .milliseconds(10)) }
    self.concurrency = max(1, concurrency)
    self.claimBatch = max(1, claimBatch)
    self.sweepInterval = max(sweepInterval, .milliseconds(100))
    self.drainGrace = max(drainGrace, .zero)
    self.attemptRetention = attemptRetention.map { max($0, .zero) }
    self.rowRetention = rowRetention.map { max($0, .zero) }
    self.heartbeatInterval = max(heartbeatInterval, .milliseconds(100))
    self.clockInterval = max(clockInterval, .milliseconds(100))
    self.tolerance = tolerance
    self.applicationName = applicationName
    self.logger = logger
    self.metrics = CountdownMetrics(table: table, factory: metrics)
    self.clockQuery = clockQuery
  }

  /// `host:pid`, the default worker name.
  public static func defaultName() -> String {
    "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
  }

  /// How long before its lease is sure to end a follow-up is given up: a sixth of the lease.
  var giveUpMargin: Duration { lease / 6 }

  /// Stops claiming: ``run(events:followUp:)`` lets the running follow-ups finish for up to
  /// ``drainGrace``, cancels the rest and gives their leases back, records what finished, and returns.
  /// (Cancelling the task that runs it instead stops at once, leaving leases to run out.)
  public func drain() {
    let wake = drainState.withLock { state -> [@Sendable () -> Void] in
      state.draining = true
      return Array(state.waiters.values)
    }
    for waiter in wake { waiter() }
  }

  /// Works until ``drain()`` has finished or the task is cancelled: follows the table, claims rows as
  /// their deadlines pass and runs `followUp` for each row it claims, reporting what happens to `events`.
  ///
  /// `followUp` should honour cancellation: its task is cancelled at ``followUpTimeout``, when its lease
  /// cannot be kept, and at the end of a drain's grace.
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
      logger: logger, counting: metrics)
    let context = Context(
      coordinator: coordinator, claims: claims, held: HeldRows(), marks: Inbox<ExpiredDeadline>(), events: events,
      followUp: followUp)
    do {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await follower.run { change in
            await coordinator.apply(change)
            switch change {
            case .caughtUp: events(.ready(pending: await coordinator.pendingCount))
            case .interrupted(let error): events(.interrupted(error))
            case .upserted, .removed, .reloading: break
            }
          }
          return false
        }
        group.addTask {
          try await self.claimLoop(finished, context)
          // Drained: what finished is recorded, then the worker stops.
          context.marks.finish(Drained())
          return false
        }
        group.addTask {
          do {
            try await self.recordLoop(context)
          } catch is Drained {
            return true
          }
          return false
        }
        group.addTask {
          try await self.keepLoop(context)
          return false
        }
        group.addTask {
          try await self.sweepLoop(context)
          return false
        }
        group.addTask {
          try await self.retentionLoop(context)
          return false
        }
        group.addTask {
          for await _ in leasesEnded { await coordinator.leasesEnded() }
          return false
        }
        defer { group.cancelAll() }
        // A failure or a cancellation ends every task; a drain ends with the last record.
        while let drained = try await group.next(), !drained {}
      }
    } catch let error as PostgresDeadlineError {
      throw error
    } catch {
      throw .wrapping(error, at: location, doing: "expiring \(table.qualifiedName)")
    }
    await claims.close()
  }

  /// What the worker's loops share during one run.
  struct Context: Sendable {
    let coordinator: ExpiryCoordinator
    let claims: ClaimConnection
    let held: HeldRows
    let marks: Inbox<ExpiredDeadline>
    let events: @Sendable (ExpiryEvent) -> Void
    let followUp: @Sendable (ExpiredDeadline) async throws -> Void
  }

  /// The end of a drain, passed through the inbox of finished follow-ups.
  struct Drained: Error {}

  /// Whether the worker drains, and the wake-ups of its running claim loops.
  struct DrainState: Sendable {
    var draining = false
    var waiters: [Int: @Sendable () -> Void] = [:]
    var nextWaiter = 0
  }

  /// Keeps the claims connection alive and the worker's leases and clock fresh: extends the leases of the
  /// rows held every third of a lease (and every tick while that fails), checks the connection every half
  /// heartbeat interval (unless it answered meanwhile), and measures the server's clock every
  /// ``clockInterval``.
  private func keepLoop(_ context: Context) async throws {
    let tick = min(heartbeatInterval / 2, lease / 6)
    var lastMeasured = ContinuousClock.now
    while true {
      try await Task.sleep(for: tick)
      do {
        // Each lease is extended once a third of it has passed since it was last set (so a failed
        // extension is tried again at the next tick), in statements of at most a claim batch, those
        // that end first first: one statement for every row held (tens of thousands in a burst), or
        // extending them all at every tick after one failure, would outrun the statements' time limit
        // and hold the rows' locks, making the records of finished follow-ups wait.
        let held = context.held.expiring(before: ContinuousClock.now + lease - lease / 3)
        for start in stride(from: 0, to: held.count, by: claimBatch) {
          let batch = Array(held[start..<min(held.count, start + claimBatch)])
          let sent = ContinuousClock.now
          let kept = try await context.claims.extendLeases(of: batch, in: table, by: lease)
          context.held.extended(batch, kept: kept, sent: sent, lease: lease)
        }
        if ContinuousClock.now - lastMeasured >= clockInterval {
          lastMeasured = .now
          try await context.claims.synchronizeClock()
        }
        try await context.claims.check(unlessAnsweredWithin: heartbeatInterval / 2)
      } catch {
        if Task.isCancelled { throw CancellationError() }
        context.events(.interrupted(.wrapping(error, at: location, doing: "keeping the claims connection")))
      }
    }
  }

  /// Prunes the attempt log (``attemptRetention``) and followed-up rows (``rowRetention``) soon after the
  /// worker starts (a tenth of the shorter retention, at most a minute), then every ten minutes at most.
  private func retentionLoop(_ context: Context) async throws {
    let retentions = [attemptRetention, rowRetention].compactMap { $0 }
    guard let shortest = retentions.min() else { return }
    var wait = min(shortest / 10, .seconds(60))
    while true {
      try await Task.sleep(for: max(wait, .milliseconds(100)))
      wait = min(shortest / 10, .seconds(600))
      do {
        if let attemptRetention {
          let pruned = try await context.claims.pruneAttempts(in: table, olderThan: attemptRetention)
          if pruned > 0 { logger.info("Pruned \(pruned) attempts of \(table.qualifiedName)") }
        }
        if let rowRetention {
          let pruned = try await context.claims.pruneFollowedUp(in: table, olderThan: rowRetention)
          if pruned > 0 { logger.info("Pruned \(pruned) followed-up rows of \(table.qualifiedName)") }
        }
      } catch {
        if Task.isCancelled { throw CancellationError() }
        context.events(.interrupted(.wrapping(error, at: location, doing: "pruning by retention")))
      }
    }
  }

  /// Every ``sweepInterval``, reads a page of ``claimBatch`` rows that have needed a worker for at least
  /// a sweep interval (the next sweep goes on after it, and starts again once a page is not full), and
  /// hands them to the plan as the truth. Rows due more recently are left to the notifications: in a
  /// burst they are being claimed, and the sweep would only race the claims.
  private func sweepLoop(_ context: Context) async throws {
    var after: (Date, Int64)?
    while true {
      try await Task.sleep(for: sweepInterval)
      do {
        let rows = try await context.claims.due(
          in: table, limit: claimBatch, after: after, overdueBy: sweepInterval)
        let unknown = await context.coordinator.swept(rows)
        if !unknown.isEmpty {
          metrics.sweptUnannounced.increment(by: Int64(unknown.count))
          logger.warning("The sweep found \(unknown.count) row(s) of \(table.qualifiedName) no notification announced")
          context.events(.found(unknown))
        }
        after =
          rows.count == claimBatch
          ? rows.last.flatMap { row in (row.leaseUntil ?? row.endsAt).map { ($0, row.id) } } : nil
      } catch {
        if Task.isCancelled { throw CancellationError() }
        after = nil
        context.events(.interrupted(.wrapping(error, at: location, doing: "sweeping for due rows")))
      }
    }
  }
}
