import Foundation
import PostgresNIO
import Synchronization

extension PostgresDeadlineFollower {
  /// One connection's life: listen, load or catch up, then apply notifications until it breaks or goes
  /// silent for a heartbeat interval.
  func session(_ progress: inout Progress, _ deliver: (DeadlineChange) async -> Void) async throws {
    let connection = try await location.connect(applicationName: applicationName, logger: logger)
    defer { connection.closeKeepingAlive() }
    let heartbeat = Heartbeat(interval: heartbeatInterval)
    let inbox = Inbox<String>()
    let silent = Silence()
    let watchdog = Task {
      let silence = try await heartbeat.silence()
      let error = PostgresDeadlineError(
        .unreachable,
        "\(location) said nothing for \(Self.seconds(silence)) (heartbeat every "
          + "\(Self.seconds(heartbeatInterval / 2))): the connection is taken for dead.")
      silent.record(error)
      inbox.finish(error)
      connection.closeKeepingAlive()
    }
    defer { watchdog.cancel() }
    do {
      try await table.verify(on: connection, at: location, logger: logger)
      progress.connected = true
      heartbeat.heard()
      // Loads or catches up, then applies each batch of notifications as it comes.
      try await connection.listen(on: table.channel) { notifications in
        func emit(_ change: DeadlineChange) async { await heartbeat.busy { await deliver(change) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            do {
              for try await notification in notifications {
                heartbeat.heard()
                inbox.append(notification.payload)
              }
              inbox.finish(PostgresDeadlineError(.unreachable, "The notifications from \(self.location) ended."))
            } catch {
              inbox.finish(error)
            }
          }
          defer { group.cancelAll() }
          var reload = progress.mustReload
          var beating = false
          while true {
            let isFirstLoad = progress.watermark == nil
            let announceReload = progress.startedLoading
            progress.startedLoading = true
            let loaded = try await load(
              on: connection, after: reload ? nil : progress.watermark, announceReload: announceReload,
              heartbeat: heartbeat, emit)
            progress.watermark = loaded.watermark
            progress.snapshot = loaded.snapshot
            progress.mustReload = false
            progress.caughtUp = true
            setState(.following(since: Date()))
            await emit(.caughtUp(isFirstLoad: isFirstLoad, rows: loaded.rows))
            if !beating {
              group.addTask { try await self.beat(on: connection, heartbeat: heartbeat) }
              beating = true
            }
            repeat {
              let payloads = try await inbox.takeAll()
              reload = try await !apply(payloads, on: connection, heartbeat: heartbeat, &progress, emit)
            } while !reload
            progress.mustReload = true
          }
        }
      }
    } catch {
      throw silent.error ?? error
    }
  }

  /// Applies a batch of notifications in order: rows and deletions they carry at once (unless the last
  /// load saw their transaction), then the transactions to read, whose rows are read as they are now
  /// (reading one later than its place in the batch never makes a row older), then the watermark.
  ///
  /// - Returns: False if a transaction's deletions may have been pruned from the log: reload the table.
  private func apply(
    _ payloads: [String], on connection: PostgresConnection, heartbeat: Heartbeat, _ progress: inout Progress,
    _ emit: (DeadlineChange) async -> Void
  ) async throws -> Bool {
    var upserted: [DeadlineRow] = []
    var transactions: [UInt64] = []
    var marker: UInt64?
    for payload in payloads {
      switch ChangeNotification(payload: payload) {
      case .marker(let xmin)?:
        marker = max(marker ?? 0, xmin)
      case .transaction(let xid)?:
        if !progress.snapshot.sawFinished(xid) { transactions.append(xid) }
      case .upserted(let xid, let rows)?:
        if !progress.snapshot.sawFinished(xid) { upserted += rows }
      case .removed(let xid, let ids)?:
        guard !progress.snapshot.sawFinished(xid) else { continue }
        if !upserted.isEmpty {
          await emit(.upserted(upserted))
          upserted.removeAll()
        }
        await emit(.removed(ids))
      case nil:
        logger.debug("Ignored a notification on \(table.channel) that is not a change: \(payload.prefix(40))")
      }
    }
    if !upserted.isEmpty { await emit(.upserted(upserted)) }
    if !transactions.isEmpty {
      guard try await read(transactions, on: connection, heartbeat: heartbeat, emit) else { return false }
    }
    if let marker { progress.watermark = max(progress.watermark ?? 0, marker) }
    return true
  }

  /// Every half ``heartbeatInterval``, sends on the channel the `xmin` of a fresh snapshot (prefixed with
  /// `w`), which is also the heartbeat's question; and now and then prunes the log of deleted ids.
  private func beat(on connection: PostgresConnection, heartbeat: Heartbeat) async throws {
    var binds = PostgresBindings()
    binds.append(table.channel)
    let marker = PostgresQuery(
      unsafeSQL: "SELECT pg_notify($1, 'w' || pg_snapshot_xmin(pg_current_snapshot())::text)", binds: binds)
    let pruneEvery = min(table.logRetention / 2, .seconds(60))
    var lastPruned = ContinuousClock.now
    var prunes = true
    while true {
      try await Task.sleep(for: heartbeatInterval / 2)
      try await connection.queryUnlessClosed(marker, logger: logger)
      heartbeat.heard()
      guard prunes, ContinuousClock.now - lastPruned >= pruneEvery else { continue }
      lastPruned = .now
      do {
        try await table.pruneRemovedOnce(on: connection, olderThan: table.logRetention, logger: logger)
        heartbeat.heard()
      } catch {
        if connection.isClosed { throw error }
        logger.warning("Not pruning \(table.name)_removed from this follower: \(DeadlineTable.describe(error))")
        prunes = false
      }
    }
  }

  /// A duration in seconds with one decimal, for messages.
  static func seconds(_ duration: Duration) -> String {
    String(format: "%.1f s", duration.timeInterval)
  }
}

/// The heartbeat's verdict, if it gave one: why the session ended.
private final class Silence: Sendable {
  private let verdict = Mutex<PostgresDeadlineError?>(nil)

  func record(_ error: PostgresDeadlineError) { verdict.withLock { $0 = error } }

  var error: PostgresDeadlineError? { verdict.withLock { $0 } }
}
