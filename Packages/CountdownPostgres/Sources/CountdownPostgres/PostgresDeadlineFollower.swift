public import CoreMetrics
import Foundation
public import Logging
import PostgresNIO
import Synchronization

/// Follows a ``DeadlineTable``: the whole table first, in pages, then every committed change, pushed
/// by the server through `LISTEN`/`NOTIFY`; after a lost connection it reconnects and catches up.
///
/// ```swift
/// let follower = PostgresDeadlineFollower(location: try PostgresLocation(url: url), table: try DeadlineTable())
/// try await follower.run { change in board.apply(change) }
/// ```
///
/// ### How nothing is lost or reordered
///
/// Each row carries the id of the transaction that last wrote it (`changed_xid`, set by a trigger);
/// deleted ids go to a companion table with the deleting transaction's id. A statement that writes or
/// deletes a few hundred rows sends them in its notifications (``DeadlineTable`` says how), so the
/// follower reads nothing for them; a larger one sends its transaction's id, and the follower reads the
/// rows and deletions of that transaction *as they are now*. Notifications arrive in commit order, a
/// row read later is never older than one read earlier, and rows the follower's last load already saw
/// are skipped: applying what arrives, in order, never moves a row back in time.
///
/// Catching up after a reconnect is a reload with a **transaction-id watermark**, not a change sequence:
/// a sequence number handed out by a trigger is not in commit order (a transaction that took number 10
/// can commit after one that took 11, and a follower that saw 11 and asks for "after 11" loses 10).
/// The watermark is the oldest transaction still running in a snapshot (`pg_snapshot_xmin`): every
/// transaction below it had finished when the snapshot was taken, so every change the follower has not
/// seen was written by a transaction at or above it. The follower listens *before* it loads or catches
/// up (in one repeatable-read snapshot, whose `xmin` becomes the watermark), so what commits in between
/// is both read and notified, never neither. While connected, its heartbeat advances the watermark: a
/// `NOTIFY` with a snapshot's `xmin`; once it arrives, every transaction below that `xmin` has been
/// notified ahead of it and read. The deleted ids are kept for ``DeadlineTable/logRetention``: a follower
/// that was away longer reloads the table (``DeadlineChange/reloading``) instead of missing a deletion.
///
/// ### A connection that goes silent
///
/// Every half ``heartbeatInterval`` the follower sends that heartbeat; when the server has said nothing
/// for a whole interval (no answer, no notification, no row), the connection is taken for dead (a hung
/// server, a paused machine, a dropped route, which TCP alone notices only after hours): the follower
/// closes it, reports ``DeadlineChange/interrupted(_:)``, reconnects with backoff and catches up.
/// ``state`` says whether it is following or reconnecting, and since when.
public final class PostgresDeadlineFollower: Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The table followed.
  public let table: DeadlineTable
  /// Rows per page of the first load (and per `upserted` change of a catch-up).
  public let pageSize: Int
  /// The longest the server may stay silent before the connection counts as dead; a heartbeat goes out
  /// every half interval (and advances the watermark a catch-up starts from).
  public let heartbeatInterval: Duration
  /// The follower's connection's name in `pg_stat_activity`.
  public let applicationName: String
  /// How many notifications may wait for the consumer: a follower whose consumer falls further behind
  /// closes its connection (so that it never holds the server's notification queue, nor its own memory,
  /// without end) and catches up from its watermark once it reconnects.
  public let maxPendingNotifications: Int
  let logger: Logger
  /// Where the follower records its lag (``CountdownMetrics``).
  let metrics: CountdownMetrics
  private let currentState = Mutex(State.starting)

  /// A follower of `table` at `location`.
  ///
  /// - Parameter heartbeatInterval: How long the server may stay silent before the follower reconnects
  ///   (at least 100 ms).
  public convenience init(
    location: PostgresLocation, table: DeadlineTable, pageSize: Int = 10_000,
    heartbeatInterval: Duration = .seconds(3), applicationName: String = "countdown-follower",
    logger: Logger = .quiet, metrics: (any MetricsFactory)? = nil, maxPendingNotifications: Int = 100_000
  ) {
    self.init(
      location: location, table: table, pageSize: pageSize, heartbeatInterval: heartbeatInterval,
      applicationName: applicationName, logger: logger, counting: CountdownMetrics(table: table, factory: metrics),
      maxPendingNotifications: maxPendingNotifications)
  }

  /// A follower that counts into `metrics` (a worker's).
  init(
    location: PostgresLocation, table: DeadlineTable, pageSize: Int = 10_000, heartbeatInterval: Duration,
    applicationName: String, logger: Logger, counting metrics: CountdownMetrics, maxPendingNotifications: Int = 100_000
  ) {
    self.location = location
    self.table = table
    self.pageSize = max(1, pageSize)
    self.heartbeatInterval = max(heartbeatInterval, .milliseconds(100))
    self.applicationName = applicationName
    self.maxPendingNotifications = max(1, maxPendingNotifications)
    self.logger = logger
    self.metrics = metrics
  }

  /// What the follower is doing now.
  public var state: State { currentState.withLock { $0 } }

  func setState(_ state: State) {
    currentState.withLock { $0 = state }
  }

  /// Follows the table until the task is cancelled, handing each change to `deliver` in order.
  ///
  /// The first connection must succeed: if it fails (unreachable, refused, no table), `run` throws.
  /// Once it has, a lost or silent connection is reported as ``DeadlineChange/interrupted(_:)`` and retried
  /// (after 20 ms, doubling up to 2 s, each wait shortened by up to half at random so that a fleet does
  /// not reconnect in step) until it works, then caught up; an error that retrying cannot fix (the table
  /// was dropped, the password changed) is thrown.
  ///
  /// The rows delivered hold what `reading` says: whole rows (titles and expiry columns included) by
  /// default; `CountdownBoard.follow(_:total:)` runs the follower reading only the columns a board needs.
  public func run(reading: Reading = .wholeRows, _ deliver: (DeadlineChange) async -> Void)
    async throws(PostgresDeadlineError)
  {
    switch reading {
    case .wholeRows: try await run(WholeRows()) { event in await deliver(DeadlineChange(event)) }
    case .deadlines: try await run(DeadlineColumns()) { event in await deliver(DeadlineChange(event)) }
    }
  }

  /// What the rows a follower delivers hold.
  public enum Reading: Sendable, Hashable {
    /// Every column of the table.
    case wholeRows
    /// `id`, `ends_at`, `paused_remaining` and `event_at` only: the other fields of the rows read by a
    /// page or a catch-up keep their defaults (an empty title, no expiry), so that a consumer that
    /// shows deadlines (a board's times) decodes and holds no more.
    case deadlines
  }

  /// ``run(reading:_:)``, with the rows read by `rows`.
  func run<Rows: FollowedRows>(_ rows: Rows, _ deliver: (FollowerEvent<Rows.Page>) async -> Void)
    async throws(PostgresDeadlineError)
  {
    var progress = Progress()
    var delay = Duration.milliseconds(20)
    var failures = 0
    var since = Date()
    setState(.starting)
    defer { setState(.stopped) }
    while !Task.isCancelled {
      do {
        try await session(rows, &progress, deliver)
      } catch {
        if Task.isCancelled { return }
        let error = PostgresDeadlineError.wrapping(error, at: location, doing: "following \(table.name)")
        guard progress.connected, error.isTransient else { throw error }
        if progress.caughtUp {
          failures = 0
          since = Date()
        }
        failures += 1
        setState(.reconnecting(since: since, reason: error, attempts: failures))
        await deliver(.interrupted(error))
      }
      if progress.caughtUp { delay = .milliseconds(20) }
      progress.caughtUp = false
      try? await Task.sleep(for: delay * Double.random(in: 0.5...1))
      delay = min(delay * 2, .seconds(2))
    }
  }

  /// What survives a reconnect.
  struct Progress {
    /// Every change by a transaction below it has been delivered; nil before the first load.
    var watermark: UInt64?
    /// The snapshot of the last load or catch-up: notifications of transactions it saw are skipped.
    var snapshot = TransactionSnapshot(xmin: 0, xmax: 0, running: [])
    /// Whether the current session got as far as catching up (resets the back-off).
    var caughtUp = false
    /// The log of deleted ids was pruned past what this follower has seen: reload the table.
    var mustReload = false
    /// The first connection succeeded (found the table): from then on, failures are retried.
    var connected = false
    /// A load began delivering rows: the next whole-table load is a reload (the consumer may hold rows
    /// that are gone by then).
    var startedLoading = false
  }

  /// A transaction id written in ASCII digits (at most 20 of them, within UInt64), or nil.
  static func transactionID(_ text: Substring) -> UInt64? {
    guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    var value: UInt64 = 0
    for byte in text.utf8 {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 48))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }
}
