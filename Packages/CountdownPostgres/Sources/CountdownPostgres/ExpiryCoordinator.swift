import CountdownKit
import Foundation

/// Carries an ``ExpiryPlan``'s decisions to the worker's board, one at a time, so that a follower's
/// change and a claim's outcome for the same row cannot be applied out of order.
actor ExpiryCoordinator {
  private var plan = ExpiryPlan()
  private let board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>

  init(board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>) {
    self.board = board
  }

  /// How many rows need a worker (owned ones included).
  var pendingCount: Int { plan.rows.count }

  func apply(_ change: DeadlineChange) {
    switch change {
    case .upserted(let rows):
      for row in rows { arm(row.id, plan.received(row)) }
    case .removed(let ids):
      for id in ids { arm(id, plan.removed(id)) }
    case .caughtUp, .interrupted:
      break
    }
  }

  func claimsLost(_ ids: some Sequence<Int64>) {
    let now = Date()
    for id in ids { arm(id, plan.claimLost(id, at: now)) }
  }

  func claimed(_ row: DeadlineRow) {
    arm(row.id, plan.claimed(row))
  }

  func followUpEnded(_ id: Int64, done: Bool) {
    arm(id, plan.followUpEnded(id, done: done, at: Date()))
  }

  private func arm(_ id: Int64, _ arm: ExpiryPlan.Arm) {
    switch arm {
    case .off:
      board.remove(id)
    case .at(let date):
      // A date the timeline cannot take (the row's own dates are checked, so only a clock gone mad):
      // claim at once and let the server's `ends_at <= now()` decide.
      if (try? board.set(id, end: date)) == nil { board.set(id, to: Countdown(end: ContinuousClock.now)) }
    }
  }
}
