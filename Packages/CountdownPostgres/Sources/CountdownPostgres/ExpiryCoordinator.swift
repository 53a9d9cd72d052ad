import CountdownKit
import Foundation
import HeapModule

/// Carries an ``ExpiryPlan``'s decisions to the worker's board, one at a time, so that a follower's
/// change and a claim's outcome for the same row cannot be applied out of order.
///
/// Rows waiting for a deadline count down on the board. Rows waiting for a lease to end — another
/// worker's follow-up, or one that failed here — wait in a heap instead, behind a single countdown
/// for the earliest lease end (``leaseTimer``): every worker follows every claim and follow-up of the
/// fleet, so a countdown per held row would cost each worker two board operations for every row claimed
/// anywhere. When a lease ends, its row moves to the board, due at once.
actor ExpiryCoordinator {
  private var plan = ExpiryPlan()
  private let board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>
  /// The engine of ``board`` and ``leaseTimer``.
  private let engine: CountdownEngine<ContinuousClock>
  /// One row (0), counting to the earliest lease end in ``leases``.
  let leaseTimer: CountdownBoard<Int, RoundedDisplay, ContinuousClock>
  /// The ids delivered since a ``DeadlineChange/reloading``, until its `caughtUp`.
  private var reloaded: Set<Int64>?
  /// The date each row on the board counts to: an arm that changes nothing costs no board operation.
  private var armed: [Int64: Date] = [:]
  /// The lease end each waiting row counts to; an entry of ``leases`` that differs is stale.
  private var leaseEnds: [Int64: Date] = [:]
  private var leases = Heap<LeaseEnd>()
  /// What ``leaseTimer`` counts to.
  private var timerDate: Date?

  /// A row's lease end, ordered by date.
  private struct LeaseEnd: Comparable {
    var date: Date
    var id: Int64

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.date, lhs.id) < (rhs.date, rhs.id) }
  }

  init(board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>, engine: CountdownEngine<ContinuousClock>) {
    self.board = board
    self.engine = engine
    leaseTimer = engine.board(of: Int.self, display: .seconds)
  }

  /// How many rows need a worker (owned ones included).
  var pendingCount: Int { plan.rows.count }

  func apply(_ change: DeadlineChange) {
    let now = serverNow
    switch change {
    case .upserted(let rows):
      for row in rows {
        reloaded?.insert(row.id)
        arm(row.id, plan.received(row), now: now)
      }
    case .removed(let ids):
      for id in ids { arm(id, plan.removed(id), now: now) }
    case .reloading:
      reloaded = []
    case .caughtUp:
      guard let seen = reloaded else { return }
      reloaded = nil
      for id in plan.rows.keys where !seen.contains(id) && !plan.owned.contains(id) {
        arm(id, plan.removed(id), now: now)
      }
    case .interrupted:
      break
    }
  }

  /// Those of `ids` whose countdown has run out on the board: the plan still wants them claimed now
  /// (a row another worker claimed meanwhile waits for its lease again, and is left out). Read from
  /// what was armed, not from the board, whose every read takes the engine's lock.
  func claimable(_ ids: [Int64]) -> [Int64] {
    let now = serverNow
    return ids.filter { armed[$0].map { $0 <= now } ?? false }
  }

  func claimsLost(_ ids: some Sequence<Int64>) {
    let now = serverNow
    for id in ids {
      armed[id] = nil  // its countdown ran out: arm it again even at the same date
      arm(id, plan.claimLost(id, at: now), now: now)
    }
  }

  func claimed(_ rows: [DeadlineRow]) {
    let now = serverNow
    for row in rows { arm(row.id, plan.claimed(row), now: now) }
  }

  /// The follow-ups of `ids` ended here: recorded (the rows need nobody), or not (failed, given up, or
  /// not recorded because the row changed: each counts to the row as last received).
  func followUpsEnded(_ ids: [Int64], recorded: Bool) {
    guard !ids.isEmpty else { return }
    let now = serverNow
    for id in ids { arm(id, plan.followUpEnded(id, done: recorded, at: now), now: now) }
  }

  /// A claim did not win `rows` (read as they are now: claimed by another worker, locked, not due yet,
  /// or discarded) and found `missing` gone: the plan takes the rows as the truth (one still due now is
  /// tried again after the retry delay), and forgets the ids that are gone.
  func refused(_ rows: [DeadlineRow], missing: [Int64]) {
    let now = serverNow
    for row in rows {
      armed[row.id] = nil  // its countdown ran out: arm it again even at the same date
      let arm = plan.received(row)
      if case .at(let date) = arm, date <= now {
        self.arm(row.id, plan.claimLost(row.id, at: now), now: now)
      } else {
        self.arm(row.id, arm, now: now)
      }
    }
    for id in missing { arm(id, plan.removed(id), now: now) }
  }

  /// The sweep read `rows` (each needs a worker now, by the table): the plan takes them as the truth,
  /// except rows whose follow-up runs here. Returns the ids the plan did not hold at all.
  func swept(_ rows: [DeadlineRow]) -> [Int64] {
    let now = serverNow
    var unknown: [Int64] = []
    for row in rows where !plan.owned.contains(row.id) && plan.rows[row.id] != row {
      if plan.rows[row.id] == nil { unknown.append(row.id) }
      arm(row.id, plan.received(row), now: now)
    }
    return unknown
  }

  /// The lease timer ran out: rows whose lease has ended go to the board, due at once.
  func leasesEnded() {
    let now = serverNow
    timerDate = nil
    while let first = leases.min, first.date <= now {
      leases.removeMin()
      guard leaseEnds[first.id] == first.date else { continue }
      leaseEnds[first.id] = nil
      armOnBoard(first.id, at: first.date)
    }
    setTimer()
  }

  /// The server's time now, as the engine estimates it: the plan's dates are the server's (a retry
  /// delay counted on the local clock would be off by the offset, and come due at once when the
  /// server is ahead). Read once per batch: it takes the engine's lock twice.
  private var serverNow: Date { engine.timeline.date(for: engine.now) }

  /// Carries out `arm` for row `id`; `now` is the server's time (``serverNow``).
  private func arm(_ id: Int64, _ arm: ExpiryPlan.Arm, now: Date) {
    switch arm {
    case .off:
      leaseEnds[id] = nil
      if armed.removeValue(forKey: id) != nil { board.apply(BoardChange.removed([id])) }
    case .at(let date):
      if plan.rows[id]?.expiredAt != nil, date > now {
        // A lease to wait for.
        if armed.removeValue(forKey: id) != nil { board.apply(BoardChange.removed([id])) }
        guard leaseEnds.updateValue(date, forKey: id) != date else { return }
        leases.insert(LeaseEnd(date: date, id: id))
        if timerDate.map({ date < $0 }) ?? true { setTimer() }
      } else {
        leaseEnds[id] = nil
        armOnBoard(id, at: date)
      }
    }
  }

  private func armOnBoard(_ id: Int64, at date: Date) {
    guard armed.updateValue(date, forKey: id) != date else { return }
    countDown(board, id, to: date)
  }

  /// Counts row `id` of `board` to `date`. A date the timeline cannot take (the row's own dates are
  /// checked, so only a clock gone mad) is due at once: claim, and let the server's `ends_at <= now()`
  /// decide.
  private func countDown<ID>(_ board: CountdownBoard<ID, RoundedDisplay, ContinuousClock>, _ id: ID, to date: Date) {
    guard !board.apply(.upserted([BoardRow(id: id, deadline: .until(date))])).isEmpty else { return }
    board.apply(.upserted([BoardRow(id: id, deadline: .after(.zero))]))
  }

  /// Points the lease timer at the earliest lease end (stale entries are dropped first).
  private func setTimer() {
    while let first = leases.min, leaseEnds[first.id] != first.date { leases.removeMin() }
    guard let first = leases.min else {
      if timerDate != nil { leaseTimer.apply(.removed([0])) }
      timerDate = nil
      return
    }
    guard first.date != timerDate else { return }
    timerDate = first.date
    countDown(leaseTimer, 0, to: first.date)
  }
}
