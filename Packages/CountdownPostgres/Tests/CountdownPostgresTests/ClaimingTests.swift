import Testing

@testable import CountdownPostgres

/// How a worker orders and sizes its claims, and which notifications a follower skips (no server).
@Suite("Claim queue, claim pace, snapshots (no server)")
struct ClaimingTests {
  @Test func theQueueTakesEachIdOnceInAnOrderOfItsOwn() {
    var queue = ClaimQueue()
    queue.add(Array(1...1_000))
    queue.add([5, 6, 1_001])
    #expect(queue.count == 1_001, "an id already waiting is not queued twice")
    var taken: [Int64] = []
    while !queue.isEmpty { taken += queue.take(97) }
    #expect(Set(taken) == Set(1...1_001) && taken.count == 1_001)
    #expect(taken.prefix(1_000) != ArraySlice(1...1_000), "shuffled (1 chance in 1,000! of failing)")
    queue.add([5])
    #expect(queue.take(10) == [5], "an id taken can be queued again")
    #expect(queue.take(10).isEmpty)
  }

  @Test func theQueueStaysSmallAsItIsUsed() {
    var queue = ClaimQueue()
    for round in 0..<100 {
      queue.add((0..<1_000).map { Int64(round * 1_000 + $0) })
      #expect(queue.take(1_000).count == 1_000)
    }
    #expect(queue.isEmpty)
  }

  @Test func aClaimTakesAboutASecondOfFollowUpsWithinItsLimit() {
    var pace = ClaimPace(maximum: 500, concurrency: 16)
    #expect(pace.size(completed: 0) == 32, "nothing known yet: twice the concurrency")
    pace.failed()
    pace.failed()
    #expect(pace.limit == 125, "failures halve the limit")
    #expect(pace.size(completed: 1_000_000) == 125, "fast follow-ups: the limit")
    pace.claimed(in: .milliseconds(1), limit: .seconds(1))
    #expect(pace.limit == 250, "a quick claim doubles it again, up to the maximum")
    pace.claimed(in: .milliseconds(600), limit: .seconds(1))
    #expect(pace.limit == 250, "a slow claim does not")
  }

  @Test func aSnapshotSaysWhichTransactionsHadFinished() throws {
    let snapshot = try #require(TransactionSnapshot("100:110:103,107"))
    #expect(snapshot.sawFinished(99) && snapshot.sawFinished(104) && snapshot.sawFinished(109))
    #expect(!snapshot.sawFinished(103) && !snapshot.sawFinished(107) && !snapshot.sawFinished(110))
    #expect(TransactionSnapshot("5:5:") == TransactionSnapshot(xmin: 5, xmax: 5, running: []))
    for bad in ["", "1:2", "2:1:", "1:2:x", "๓:4:", "1:2:3,"] { #expect(TransactionSnapshot(bad) == nil, "\(bad)") }
  }
}
