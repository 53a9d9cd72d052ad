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
/// that needs a worker on a ``CountdownBoard`` of a `CountdownEngine`, which sleeps until the next
/// deadline (``ExpiryPlan`` says which date each row counts to). The engine's clock is set to the
/// server's (a `ServerTimeEstimator` over `clock_timestamp()`), so the board counts to the server's time.
///
/// **Exactly-once expiry.** When rows finish on the board, the worker claims them in one statement:
/// `SELECT … FOR UPDATE SKIP LOCKED` of the finished ids whose deadline has passed *by the server's
/// clock* (`ends_at <= now()`, so never early), and an `UPDATE` that sets `expired_at` (kept if already
/// set), a lease (`lease_until`) and the attempt count, and logs the attempt, in the same transaction.
/// Two workers cannot both lock a row, and one that locks it after the other committed finds it no
/// longer claimable: one of them wins, once.
///
/// **At-least-once follow-up.** The winner runs `followUp`, extending its lease while it runs, then sets
/// `followed_up_at`. A worker killed in between leaves `lease_until` to run out; every worker's board
/// counts to it, and the first to claim the row then runs the follow-up again (attempt 2, and so on).
/// A follow-up that throws shortens the lease to ``failureDelay``, so it is retried soon.
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
  /// the follow-up runs, so only a dead or stuck worker loses it).
  public let lease: Duration
  /// How soon a follow-up that threw is retried.
  public let failureDelay: Duration
  /// How many follow-ups run at once.
  public let concurrency: Int
  /// How late the engine may wake for a deadline (its coalescing tolerance).
  public let tolerance: Duration
  /// The name of the worker's connections in `pg_stat_activity` (the claims connection adds `-claims`).
  public let applicationName: String
  let logger: Logger

  /// A worker on `table` at `location`.
  public init(
    location: PostgresLocation, table: DeadlineTable, name: String = DeadlineExpiryWorker.defaultName(),
    lease: Duration = .seconds(60), failureDelay: Duration = .seconds(10), concurrency: Int = 16,
    tolerance: Duration = .milliseconds(20), applicationName: String = "countdown-expire", logger: Logger = .quiet
  ) {
    self.location = location
    self.table = table
    self.name = name
    self.lease = max(lease, .seconds(1))
    self.failureDelay = max(failureDelay, .milliseconds(100))
    self.concurrency = max(1, concurrency)
    self.tolerance = tolerance
    self.applicationName = applicationName
    self.logger = logger
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
    let finished = board.finished
    let coordinator = ExpiryCoordinator(board: board)
    let claims = ClaimConnection(location: location, applicationName: applicationName + "-claims", logger: logger)
    try await claims.synchronizeClock(of: engine)
    let follower = PostgresDeadlineFollower(
      location: location, table: table, applicationName: applicationName, logger: logger)
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          try await follower.run { change in
            await coordinator.apply(change)
            switch change {
            case .caughtUp: events(.ready(pending: await coordinator.pendingCount))
            case .interrupted(let error): events(.interrupted(error))
            case .upserted, .removed: break
            }
          }
        }
        group.addTask {
          try await self.claimLoop(
            finished, coordinator: coordinator, claims: claims, events: events, followUp: followUp)
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

  /// Claims rows as they finish on the board (all that finished meanwhile in one statement) and starts
  /// the follow-ups of the rows won, at most ``concurrency`` at a time.
  private func claimLoop(
    _ finished: AsyncStream<Int64>, coordinator: ExpiryCoordinator, claims: ClaimConnection,
    events: @escaping @Sendable (ExpiryEvent) -> Void,
    followUp: @escaping @Sendable (ExpiredDeadline) async throws -> Void
  ) async throws {
    let inbox = Inbox<Int64>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await id in finished { inbox.append(id) }
        inbox.finish(CancellationError())
      }
      defer { group.cancelAll() }
      var running = 0
      while true {
        let ids = Array(Set(try await inbox.takeAll()))
        let won: [ExpiredDeadline]
        do {
          won = try await claims.claim(ids, in: table, by: name, lease: lease)
        } catch {
          events(.interrupted(.wrapping(error, at: location, doing: "claiming rows")))
          await coordinator.claimsLost(ids)
          continue
        }
        await coordinator.claimsLost(Set(ids).subtracting(won.map(\.id)))
        for expired in won {
          await coordinator.claimed(expired.row)
          events(.claimed(expired))
          if running >= concurrency {
            try await group.next()
            running -= 1
          }
          running += 1
          group.addTask {
            let done = await self.followUp(expired, claims: claims, events: events, followUp)
            await coordinator.followUpEnded(expired.id, done: done)
          }
        }
      }
    }
  }

  /// Runs one follow-up, extending the lease while it runs, and records how it ended; whether it is done.
  private func followUp(
    _ expired: ExpiredDeadline, claims: ClaimConnection, events: @escaping @Sendable (ExpiryEvent) -> Void,
    _ followUp: @escaping @Sendable (ExpiredDeadline) async throws -> Void
  ) async -> Bool {
    let heartbeat = Task {
      while !Task.isCancelled {
        try await Task.sleep(for: lease / 3)
        try await claims.extendLease(of: expired, in: table, by: lease)
      }
    }
    defer { heartbeat.cancel() }
    do {
      try await followUp(expired)
    } catch {
      heartbeat.cancel()
      try? await claims.release(expired, in: table, retryIn: failureDelay)
      events(.followUpFailed(expired, "\(error)"))
      return false
    }
    heartbeat.cancel()
    do {
      try await claims.markFollowedUp(expired, in: table)
    } catch {
      events(.interrupted(.wrapping(error, at: location, doing: "recording the follow-up of row \(expired.id)")))
      return false
    }
    events(.followedUp(expired))
    return true
  }
}
