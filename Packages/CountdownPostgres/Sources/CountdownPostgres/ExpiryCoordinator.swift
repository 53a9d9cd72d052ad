import CountdownKit
import Foundation

/// Carries an ``ExpiryPlan``'s decisions to the worker's board, one at a time, so that a follower's
/// change and a claim's outcome for the same row cannot be applied out of order.
actor ExpiryCoordinator {
  private var plan = ExpiryPlan()
  private let board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>
  /// The ids delivered since a ``DeadlineChange/reloading``, until its `caughtUp`.
  private var reloaded: Set<Int64>?
  /// The date each row on the board counts to: an arm that changes nothing costs no board operation
  /// (every worker follows every claim and follow-up of the fleet, and sees its own twice).
  private var armed: [Int64: Date] = [:]

  init(board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>) {
    self.board = board
  }

  /// How many rows need a worker (owned ones included).
  var pendingCount: Int { plan.rows.count }

  func apply(_ change: DeadlineChange) {
    switch change {
    case .upserted(let rows):
      for row in rows {
        reloaded?.insert(row.id)
        arm(row.id, plan.received(row))
      }
    case .removed(let ids):
      for id in ids { arm(id, plan.removed(id)) }
    case .reloading:
      reloaded = []
    case .caughtUp:
      guard let seen = reloaded else { return }
      reloaded = nil
      for id in plan.rows.keys where !seen.contains(id) && !plan.owned.contains(id) { arm(id, plan.removed(id)) }
    case .interrupted:
      break
    }
  }

  /// Those of `ids` whose countdown has run out on the board: the plan still wants them claimed now
  /// (a row another worker claimed meanwhile counts to its lease again, and is left out).
  func claimable(_ ids: [Int64]) -> [Int64] {
    let now = board.engine.now
    return ids.filter { board.countdown(for: $0)?.isFinished(at: now) == true }
  }

  func claimsLost(_ ids: some Sequence<Int64>) {
    let now = serverNow
    for id in ids {
      armed[id] = nil  // its countdown ran out: arm it again even at the same date
      arm(id, plan.claimLost(id, at: now))
    }
  }

  func claimed(_ rows: [DeadlineRow]) {
    for row in rows { arm(row.id, plan.claimed(row)) }
  }

  func followUpsEnded(_ ids: [Int64], done: Bool) {
    let now = serverNow
    for id in ids { arm(id, plan.followUpEnded(id, done: done, at: now)) }
  }

  /// The server's time now, as the engine estimates it: the plan's dates are the server's (a retry
  /// delay counted on the local clock would be off by the offset, and come due at once when the
  /// server is ahead).
  private var serverNow: Date { board.engine.timeline.date(for: board.engine.now) }

  private func arm(_ id: Int64, _ arm: ExpiryPlan.Arm) {
    switch arm {
    case .off:
      if armed.removeValue(forKey: id) != nil { board.remove(id) }
    case .at(let date):
      guard armed.updateValue(date, forKey: id) != date else { return }
      // A date the timeline cannot take (the row's own dates are checked, so only a clock gone mad):
      // claim at once and let the server's `ends_at <= now()` decide.
      if (try? board.set(id, end: date)) == nil { board.set(id, to: Countdown(end: board.engine.now)) }
    }
  }
}
