import CoreMetrics
import Foundation
import PostgresNIO
import Synchronization

extension PostgresDeadlineFollower {
  /// One connection's life: listen, load or catch up, then apply notifications until it breaks or goes
  /// silent for a heartbeat interval.
  func session<Rows: FollowedRows>(
    _ rows: Rows, _ progress: inout Progress, _ deliver: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws {
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
      let channel = try await table.channel(on: connection, at: location, logger: logger)
      progress.connected = true
      heartbeat.heard()
      let markers = SentMarkers()
      // Loads or catches up, then applies each batch of notifications as it comes.
      try await connection.listen(on: channel) { notifications in
        func emit(_ change: FollowerEvent<Rows.Page>) async { await heartbeat.busy { await deliver(change) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            do {
              for try await notification in notifications {
                heartbeat.heard()
                // A consumer this far behind would hold the notifications in memory without end: the
                // follower lets go of the connection and catches up from its watermark instead.
                guard inbox.append(notification.payload) <= self.maxPendingNotifications else {
                  inbox.finish(
                    PostgresDeadlineError(
                      .unreachable,
                      "More than \(self.maxPendingNotifications) notifications waited for the consumer: "
                        + "reconnecting to catch up instead."))
                  connection.closeKeepingAlive()
                  return
                }
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
              rows, on: connection, after: reload ? nil : progress.watermark, announceReload: announceReload,
              heartbeat: heartbeat, emit)
            progress.watermark = loaded.watermark
            progress.snapshot = loaded.snapshot
            progress.mustReload = false
            progress.caughtUp = true
            setState(.following(since: Date()))
            await emit(.caughtUp(isFirstLoad: isFirstLoad, rows: loaded.rows))
            if !beating {
              group.addTask {
                try await self.beat(on: connection, channel: channel, markers: markers, heartbeat: heartbeat)
              }
              beating = true
            }
            repeat {
              let payloads = try await inbox.takeAll()
              reload = try await !apply(
                payloads, as: rows, on: connection, markers: markers, heartbeat: heartbeat, &progress, emit)
            } while !reload
            progress.mustReload = true
          }
        }
      }
    } catch {
      throw silent.error ?? error
    }
  }

  /// Applies a batch of notifications in order: rows and deletions they carry at once (unless their
  /// transaction is below the watermark or the last load saw it: a notification of such a transaction
  /// was delivered before, so this one is a copy sent again), then the transactions to read, whose rows
  /// are read as they are now (reading one later than its place in the batch never makes a row older),
  /// then the watermark, if the batch carries one of this follower's own markers.
  ///
  /// Deletions are checked against the table first: an id still in the table is not removed (a
  /// notification of a deletion proves nothing; the table does).
  ///
  /// - Returns: False if a transaction's deletions may have been pruned from the log: reload the table.
  private func apply<Rows: FollowedRows>(
    _ payloads: [String], as rows: Rows, on connection: PostgresConnection, markers: SentMarkers,
    heartbeat: Heartbeat, _ progress: inout Progress, _ emit: (FollowerEvent<Rows.Page>) async -> Void
  ) async throws -> Bool {
    var upserted: [DeadlineRow] = []
    var transactions: [UInt64] = []
    var marker: UInt64?
    var notifications: [ChangeNotification] = []
    var deleted: [Int64] = []
    let (watermark, snapshot) = (progress.watermark ?? 0, progress.snapshot)
    let isOld = { (xid: UInt64) in xid < watermark || snapshot.sawFinished(xid) }
    for payload in payloads {
      switch ChangeNotification(payload: payload) {
      case .marker(let xmin, let nonce)?:
        if let sent = markers.accept(xmin, nonce: nonce) {
          marker = max(marker ?? 0, xmin)
          metrics.followerLag.recordNanoseconds(Self.nanoseconds(ContinuousClock.now - sent))
        }
      case .transaction(let xid)?:
        if !isOld(xid) { transactions.append(xid) }
      case .upserted(let xid, _)? where isOld(xid):
        continue
      case .removed(let xid, let ids)?:
        guard !isOld(xid) else { continue }
        deleted += ids
        notifications.append(.removed(transaction: xid, ids: ids))
      case let notification?:
        notifications.append(notification)
      case nil:
        logger.debug(
          "Ignored a notification on \(table.qualifiedName)'s channel that is not a change: \(payload.prefix(40))")
      }
    }
    let gone = deleted.isEmpty ? [] : try await absent(deleted, on: connection, heartbeat: heartbeat)
    for notification in notifications {
      switch notification {
      case .upserted(_, let rows):
        upserted += rows
      case .removed(_, let ids):
        let confirmed = ids.filter { gone.contains($0) }
        if confirmed.count < ids.count {
          logger.warning(
            "A notification on \(table.qualifiedName)'s channel named \(ids.count - confirmed.count) deleted row(s) still in the table; ignored"
          )
        }
        guard !confirmed.isEmpty else { continue }
        if !upserted.isEmpty {
          await emit(.upserted(rows.page(of: upserted)))
          upserted.removeAll()
        }
        await emit(.removed(confirmed))
      case .transaction, .marker:
        break
      }
    }
    if !upserted.isEmpty { await emit(.upserted(rows.page(of: upserted))) }
    if !transactions.isEmpty {
      guard try await read(transactions, as: rows, on: connection, heartbeat: heartbeat, emit) else { return false }
    }
    if let marker { progress.watermark = max(progress.watermark ?? 0, marker) }
    return true
  }

  /// Those of `ids` that are not in the table now.
  private func absent(_ ids: [Int64], on connection: PostgresConnection, heartbeat: Heartbeat) async throws
    -> Set<Int64>
  {
    var binds = PostgresBindings()
    binds.append(ids)
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT d.id FROM unnest($1::int8[]) AS d(id) WHERE NOT EXISTS (SELECT FROM \(table.table) t WHERE t.id = d.id)
        """, binds: binds)
    var gone = Set<Int64>()
    for try await id in try await connection.queryUnlessClosed(query, logger: logger).decode(Int64.self) {
      gone.insert(id)
    }
    heartbeat.heard()
    return gone
  }

  /// Every half ``heartbeatInterval``, sends on the channel the `xmin` of a fresh snapshot (`w<xmin>.<nonce>`,
  /// with a random nonce: only markers this follower sent move its watermark), which is also the
  /// heartbeat's question; and now and then prunes the log of deleted ids.
  private func beat(on connection: PostgresConnection, channel: String, markers: SentMarkers, heartbeat: Heartbeat)
    async throws
  {
    let pruneEvery = min(table.logRetention / 2, .seconds(60))
    var lastPruned = ContinuousClock.now
    var prunes = true
    while true {
      try await Task.sleep(for: heartbeatInterval / 2)
      let nonce = UInt64.random(in: 1...UInt64.max)
      var binds = PostgresBindings()
      binds.append(channel)
      binds.append(String(nonce))
      let marker = PostgresQuery(
        unsafeSQL: """
          WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x),
            n AS (SELECT pg_notify($1, 'w' || x || '.' || $2) FROM s)
          SELECT x FROM s, n
          """, binds: binds)
      // Recorded before it is sent, so that it is known when it comes back.
      markers.expect(nonce)
      for try await xmin in try await connection.queryUnlessClosed(marker, logger: logger).decode(String.self) {
        if let xmin = Self.transactionID(Substring(xmin)) { markers.sent(nonce, xmin: xmin) }
      }
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

  /// A duration in nanoseconds (0 if negative), for metrics.
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = max(duration, .zero).components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// A duration in seconds with one decimal, for messages.
  static func seconds(_ duration: Duration) -> String {
    String(format: "%.1f s", duration.timeInterval)
  }
}

/// The markers a follower sent and has not seen come back, by nonce: a marker moves the watermark only if
/// this follower sent it (anyone who can send on the channel could send a watermark from the future, or
/// replay an old one).
final class SentMarkers: Sendable {
  private struct Sent {
    var at: ContinuousClock.Instant
    var xmin: UInt64?
  }
  private let pending = Mutex<[UInt64: Sent]>([:])

  /// A marker with `nonce` is about to be sent.
  func expect(_ nonce: UInt64) {
    let now = ContinuousClock.now
    pending.withLock { $0[nonce] = Sent(at: now) }
  }

  /// The marker with `nonce` carried `xmin`.
  func sent(_ nonce: UInt64, xmin: UInt64) { pending.withLock { $0[nonce]?.xmin = xmin } }

  /// When a marker that arrived was sent, if it is one of ours with this `xmin`; ours are forgotten as
  /// they arrive (and all of them if many never came back).
  func accept(_ xmin: UInt64, nonce: UInt64?) -> ContinuousClock.Instant? {
    guard let nonce else { return nil }
    return pending.withLock { pending in
      guard let sent = pending.removeValue(forKey: nonce) else { return nil }
      if pending.count > 64 { pending.removeAll() }
      // The marker may arrive before the query that sent it returned its xmin to us: its nonce
      // alone (unguessable) says it is ours.
      return sent.xmin.map { $0 == xmin } ?? true ? sent.at : nil
    }
  }
}

/// The heartbeat's verdict, if it gave one: why the session ended.
private final class Silence: Sendable {
  private let verdict = Mutex<PostgresDeadlineError?>(nil)

  func record(_ error: PostgresDeadlineError) { verdict.withLock { $0 = error } }

  var error: PostgresDeadlineError? { verdict.withLock { $0 } }
}
