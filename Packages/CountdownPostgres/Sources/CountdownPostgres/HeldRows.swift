import Synchronization

/// The rows a worker has claimed and not yet recorded as followed up (waiting to run, running, or being
/// recorded): their leases are extended together while the worker lives.
final class HeldRows: Sendable {
  private let rows = Mutex<[Int64: ExpiredDeadline]>([:])

  func add(_ claimed: [ExpiredDeadline]) {
    rows.withLock { rows in
      for expired in claimed { rows[expired.id] = expired }
    }
  }

  func remove(_ ids: some Sequence<Int64>) {
    rows.withLock { rows in
      for id in ids { rows[id] = nil }
    }
  }

  var all: [ExpiredDeadline] { rows.withLock { Array($0.values) } }
}
