public import Logging
import PostgresNIO

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
/// Each writing transaction sends its own id (`xid8`) on the table's channel, once, at commit, and each
/// row carries the id of the transaction that last wrote it (`changed_xid`, set by a trigger); deleted
/// ids go to a companion table with the deleting transaction's id. For a notification, the follower
/// reads the rows and deletions of that transaction *as they are now*: a row read later is never older
/// than one read earlier, so applying what is read, in order, never moves a row back in time.
///
/// Catching up after a reconnect is a reload with a **transaction-id watermark**, not a change sequence:
/// a sequence number handed out by a trigger is not in commit order (a transaction that took number 10
/// can commit after one that took 11, and a follower that saw 11 and asks for "after 11" loses 10).
/// The watermark is the oldest transaction still running in a snapshot (`pg_snapshot_xmin`): every
/// transaction below it had finished when the snapshot was taken, so every change the follower has not
/// seen was written by a transaction at or above it. The follower listens *before* it loads or catches
/// up (in one repeatable-read snapshot, whose `xmin` becomes the watermark), so what commits in between
/// is both read and notified, never neither. While connected, it advances the watermark by sending
/// itself a marker (`NOTIFY` with a snapshot's `xmin`) every ``markerInterval``: once the marker
/// arrives, every transaction below its `xmin` has been notified ahead of it and read.
public final class PostgresDeadlineFollower: Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The table followed.
  public let table: DeadlineTable
  /// Rows per page of the first load (and per `upserted` change of a catch-up).
  public let pageSize: Int
  /// How often the watermark advances while connected; a catch-up reads what changed since then.
  public let markerInterval: Duration
  /// The follower's connection's name in `pg_stat_activity`.
  public let applicationName: String
  let logger: Logger

  /// A follower of `table` at `location`.
  public init(
    location: PostgresLocation, table: DeadlineTable, pageSize: Int = 10_000, markerInterval: Duration = .seconds(2),
    applicationName: String = "countdown-follower", logger: Logger = .quiet
  ) {
    self.location = location
    self.table = table
    self.pageSize = max(1, pageSize)
    self.markerInterval = markerInterval
    self.applicationName = applicationName
    self.logger = logger
  }

  /// Follows the table until the task is cancelled, handing each change to `deliver` in order.
  ///
  /// The first connection must succeed: if it fails (unreachable, refused, no table), `run` throws.
  /// Later, a lost connection is reported as ``DeadlineChange/interrupted(_:)`` and retried (after 20 ms,
  /// doubling up to 2 s) until it works, then caught up; an error that retrying cannot fix (the table
  /// was dropped, the password changed) is thrown.
  public func run(_ deliver: (DeadlineChange) async -> Void) async throws(PostgresDeadlineError) {
    var progress = Progress()
    var delay = Duration.milliseconds(20)
    while !Task.isCancelled {
      do {
        try await session(&progress, deliver)
      } catch {
        if Task.isCancelled { return }
        let error = PostgresDeadlineError.wrapping(error, at: location, doing: "following \(table.name)")
        guard progress.watermark != nil, error.isTransient else { throw error }
        await deliver(.interrupted(error))
      }
      if progress.caughtUp { delay = .milliseconds(20) }
      progress.caughtUp = false
      try? await Task.sleep(for: delay)
      delay = min(delay * 2, .seconds(2))
    }
  }

  /// What survives a reconnect.
  struct Progress {
    /// Every change by a transaction below it has been delivered; nil before the first load.
    var watermark: UInt64?
    /// Whether the current session got as far as catching up (resets the back-off).
    var caughtUp = false
  }

  /// One connection's life: listen, load or catch up, then apply notifications until it breaks.
  private func session(_ progress: inout Progress, _ deliver: (DeadlineChange) async -> Void) async throws {
    let connection = try await location.connect(applicationName: applicationName, logger: logger)
    defer { connection.closeKeepingAlive() }
    try await table.verify(on: connection, at: location, logger: logger)
    try await connection.listen(on: table.channel) { notifications in
      let inbox = Inbox<String>()
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          do {
            for try await notification in notifications { inbox.append(notification.payload) }
            inbox.finish(PostgresDeadlineError(.unreachable, "The notifications from \(self.location) ended."))
          } catch {
            inbox.finish(error)
          }
        }
        defer { group.cancelAll() }
        let isFirstLoad = progress.watermark == nil
        let (watermark, count) = try await load(on: connection, after: progress.watermark, deliver)
        progress.watermark = watermark
        progress.caughtUp = true
        await deliver(.caughtUp(isFirstLoad: isFirstLoad, rows: count))
        group.addTask { await self.sendMarkers(on: connection) }
        while true {
          let payloads = try await inbox.takeAll()
          var transactions: [String] = []
          var marker: UInt64?
          for payload in payloads {
            if payload.hasPrefix("w"), let xid = Self.transactionID(payload.dropFirst()) {
              marker = max(marker ?? 0, xid)
            } else if Self.transactionID(Substring(payload)) != nil {
              transactions.append(payload)
            }
          }
          if !transactions.isEmpty { try await read(transactions, on: connection, deliver) }
          if let marker { progress.watermark = max(progress.watermark ?? 0, marker) }
        }
      }
    }
  }

  /// Every ``markerInterval``, sends on the channel the `xmin` of a fresh snapshot, prefixed with `w`.
  private func sendMarkers(on connection: PostgresConnection) async {
    let query = PostgresQuery(
      unsafeSQL: "SELECT pg_notify($1, 'w' || pg_snapshot_xmin(pg_current_snapshot())::text)",
      binds: {
        var binds = PostgresBindings(); binds.append(table.channel); return binds
      }())
    while !Task.isCancelled {
      do {
        try await Task.sleep(for: markerInterval)
        try await connection.queryUnlessClosed(query, logger: logger)
      } catch {
        return  // cancelled, or the connection broke: the session notices through its notifications
      }
    }
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
