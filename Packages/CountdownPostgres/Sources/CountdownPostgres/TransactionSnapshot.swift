/// A PostgreSQL snapshot (`pg_current_snapshot()`, written `xmin:xmax:xip,…`): which transactions had
/// committed when it was taken.
///
/// A follower keeps the snapshot its last load or catch-up read the table in. A notification that
/// carries rows of a transaction the snapshot already saw is older than what the follower holds (it was
/// queued after the follower started listening, but committed before the snapshot was taken), and is
/// skipped: applying it would move those rows back in time until the next notification.
struct TransactionSnapshot: Sendable, Hashable {
  /// Every transaction below it had finished.
  let xmin: UInt64
  /// Every transaction at or above it had not started.
  let xmax: UInt64
  /// The transactions between the two that were still running.
  let running: Set<UInt64>

  /// Reads `xmin:xmax:xip1,xip2,…` (ASCII digits only); nil if it is not that.
  init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, let xmin = PostgresDeadlineFollower.transactionID(parts[0]),
      let xmax = PostgresDeadlineFollower.transactionID(parts[1]), xmin <= xmax
    else { return nil }
    var running = Set<UInt64>()
    if !parts[2].isEmpty {
      for part in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
        guard let xid = PostgresDeadlineFollower.transactionID(part) else { return nil }
        running.insert(xid)
      }
    }
    self.init(xmin: xmin, xmax: xmax, running: running)
  }

  init(xmin: UInt64, xmax: UInt64, running: Set<UInt64>) {
    self.xmin = xmin
    self.xmax = xmax
    self.running = running
  }

  /// Whether transaction `xid` had finished when the snapshot was taken (committed, so its changes are
  /// in what was read, or aborted, so it notified nothing).
  func sawFinished(_ xid: UInt64) -> Bool {
    xid < xmin || (xid < xmax && !running.contains(xid))
  }
}
