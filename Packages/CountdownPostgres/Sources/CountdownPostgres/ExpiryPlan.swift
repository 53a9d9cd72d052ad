import CountdownKit
public import Foundation

/// When a worker should next try to claim each row: a pure value (no clock, no database), driven by
/// the rows the follower delivers and the outcomes of claims and follow-ups.
///
/// A row needs a worker when its deadline has passed and it is not expired yet (``due(_:)`` is its
/// `ends_at`), or when it was expired but its follow-up did not finish and the lease of the worker that
/// ran it is over (`lease_until`). Paused, invalid, followed-up and discarded rows need nobody. A claim that
/// another worker won, or that failed, is tried again no sooner than `retryDelay` later (unless the row
/// changes to a later time); a row whose follow-up runs here is left alone until it ends.
public struct ExpiryPlan: Sendable, Equatable {
  /// What to do with a row's countdown on the worker's board.
  public enum Arm: Sendable, Hashable {
    /// Count down to this date, then try to claim the row.
    case at(Date)
    /// Take the row off the board.
    case off
  }

  /// How long after a lost or failed claim the row is tried again.
  public let retryDelay: Duration
  /// The rows that need a worker, in their latest known state.
  public private(set) var rows: [Int64: DeadlineRow] = [:]
  /// Rows not to be claimed again before these dates.
  private var notBefore: [Int64: Date] = [:]
  /// Rows whose follow-up runs in this worker.
  public private(set) var owned: Set<Int64> = []

  /// An empty plan.
  public init(retryDelay: Duration = .seconds(1)) {
    self.retryDelay = retryDelay
  }

  /// When `row` next needs a worker, or nil if it never does as it stands.
  public static func due(_ row: DeadlineRow) -> Date? {
    guard row.followedUpAt == nil, row.discardedAt == nil, case .success(.until(let end)) = row.deadline else {
      return nil
    }
    guard row.expiredAt != nil else { return end }
    return row.leaseUntil ?? end
  }

  /// The row's countdown as the plan stands.
  public func arm(for id: Int64) -> Arm {
    guard !owned.contains(id), let row = rows[id], let due = Self.due(row) else { return .off }
    return .at(max(due, notBefore[id] ?? .distantPast))
  }

  /// The follower delivered `row` (inserted, changed, or as it was at a reconnect).
  public mutating func received(_ row: DeadlineRow) -> Arm {
    if Self.due(row) == nil {
      rows[row.id] = nil
      notBefore[row.id] = nil
    } else {
      rows[row.id] = row
    }
    return arm(for: row.id)
  }

  /// The follower reported row `id` deleted.
  public mutating func removed(_ id: Int64) -> Arm {
    rows[id] = nil
    notBefore[id] = nil
    return .off
  }

  /// A claim of row `id` did not win at `now` (another worker did, the row was locked, or the claim
  /// failed): try again after ``retryDelay`` unless the row changes.
  public mutating func claimLost(_ id: Int64, at now: Date) -> Arm {
    notBefore[id] = now.addingTimeInterval(retryDelay.timeInterval)
    return arm(for: id)
  }

  /// This worker claimed `row` (the state the claim returned): its follow-up runs here.
  public mutating func claimed(_ row: DeadlineRow) -> Arm {
    owned.insert(row.id)
    notBefore[row.id] = nil
    rows[row.id] = row
    return .off
  }

  /// The follow-up of row `id` ended here: done (the row needs nobody any more), or failed at `now`
  /// (the row waits for its lease, which the failure shortened, and at least ``retryDelay``).
  public mutating func followUpEnded(_ id: Int64, done: Bool, at now: Date) -> Arm {
    owned.remove(id)
    if done {
      rows[id] = nil
      notBefore[id] = nil
      return .off
    }
    return claimLost(id, at: now)
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  var timeInterval: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
