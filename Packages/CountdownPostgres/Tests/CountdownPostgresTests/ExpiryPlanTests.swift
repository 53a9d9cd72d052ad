import Foundation
import Testing

@testable import CountdownPostgres

@Suite("When a worker claims a row (ExpiryPlan, no server)")
struct ExpiryPlanTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func row(_ id: Int64, end: TimeInterval, paused: Double? = nil) -> DeadlineRow {
    DeadlineRow(id: id, endsAt: now.addingTimeInterval(end), pausedRemaining: paused)
  }

  @Test func aRunningRowCountsToItsDeadline() {
    var plan = ExpiryPlan()
    #expect(plan.received(row(1, end: 10)) == .at(now.addingTimeInterval(10)))
    #expect(plan.received(row(1, end: 30)) == .at(now.addingTimeInterval(30)), "a moved deadline moves the countdown")
  }

  @Test func pausedInvalidAndFollowedUpRowsNeedNobody() {
    var plan = ExpiryPlan()
    #expect(plan.received(row(1, end: 10, paused: 5)) == .off)
    #expect(plan.received(DeadlineRow(id: 2, endsAt: nil)) == .off)
    var done = row(3, end: -5)
    done.expiredAt = now
    done.followedUpAt = now
    #expect(plan.received(done) == .off)
    #expect(plan.rows.isEmpty)
  }

  @Test func anExpiredRowWaitsForItsLease() {
    var plan = ExpiryPlan()
    var expired = row(1, end: -5)
    expired.expiredAt = now
    expired.leaseUntil = now.addingTimeInterval(60)
    #expect(plan.received(expired) == .at(now.addingTimeInterval(60)))
  }

  @Test func aLostClaimIsRetriedAfterTheDelayUnlessTheRowMovesLater() {
    var plan = ExpiryPlan(retryDelay: .seconds(1))
    _ = plan.received(row(1, end: -1))
    #expect(plan.claimLost(1, at: now) == .at(now.addingTimeInterval(1)))
    #expect(plan.received(row(1, end: -2)) == .at(now.addingTimeInterval(1)), "a stale state does not undo the delay")
    #expect(plan.received(row(1, end: 20)) == .at(now.addingTimeInterval(20)))
  }

  @Test func aRowWhoseFollowUpRunsHereIsLeftAlone() {
    var plan = ExpiryPlan(retryDelay: .seconds(1))
    _ = plan.received(row(1, end: -1))
    var claimed = row(1, end: -1)
    claimed.expiredAt = now
    claimed.leaseUntil = now.addingTimeInterval(60)
    #expect(plan.claimed(claimed) == .off)
    #expect(plan.received(claimed) == .off, "the follower's copy of our own claim")
    #expect(plan.followUpEnded(1, done: true, at: now) == .off)
    #expect(plan.rows.isEmpty && plan.owned.isEmpty)
  }

  @Test func aFailedFollowUpIsRetried() {
    var plan = ExpiryPlan(retryDelay: .seconds(1))
    var claimed = row(1, end: -1)
    claimed.expiredAt = now
    claimed.leaseUntil = now.addingTimeInterval(-1)
    _ = plan.claimed(claimed)
    #expect(plan.followUpEnded(1, done: false, at: now) == .at(now.addingTimeInterval(1)))
  }

  @Test func aRemovedRowNeedsNobody() {
    var plan = ExpiryPlan()
    _ = plan.received(row(1, end: 5))
    #expect(plan.removed(1) == .off)
    #expect(plan.claimLost(1, at: now) == .off, "a lost claim does not bring a removed row back")
  }
}
