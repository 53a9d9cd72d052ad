@testable import CountdownKit
import Testing

/// Stale items at the front of a wheel slot (countdowns extended or cancelled in the order they were
/// added) are counted out where they lie, not shifted out of the array one call at a time: the
/// bookkeeping must still count, list and serve exactly the valid items.
@Suite struct WheelStalePrefixTests {
  @Test(arguments: [10, 63, 64, 65, 1_000])
  func staleItemsAtTheFrontOfASlotAreCountedOutOneByOneAndNeverServed(count: Int) {
    var schedule = Schedule()
    let lane = schedule.lane(forTolerance: ticks(.milliseconds(100)))
    let due = ticks(.milliseconds(500))
    for row in 0..<count { schedule.insert(Schedule.Item(due: due, row: UInt32(row), stamp: 0), lane: lane) }
    var stale = Set<UInt32>()
    let isStale = { (item: Schedule.Item) in stale.contains(item.row) }
    // The front goes stale one item at a time; every other item from the back half stays valid.
    for row in 0..<(count - 1) {
      stale.insert(UInt32(row))
      #expect(schedule.nextWake(isStale: isStale) == ticks(servedAt(.milliseconds(500))))
      #expect(schedule.count == count - row - 1, "the items counted are the valid ones")
    }
    #expect(schedule.queuedItems.map(\.row) == [UInt32(count - 1)])
    // Items added behind a stale prefix are served with the one that stayed valid, and only they.
    schedule.insert(Schedule.Item(due: due, row: UInt32(count), stamp: 0), lane: lane)
    #expect(schedule.count == 2)
    schedule.beginServe(at: ticks(servedAt(.milliseconds(500))))
    let served = Array(schedule.nextDue(upTo: count + 1))
    #expect(served.map(\.row) == [UInt32(count - 1), UInt32(count)])
    #expect(schedule.nextDue(upTo: count + 1).isEmpty)
  }

  @Test func aSlotWhoseItemsAllWentStaleIsNoWakeUp() {
    var schedule = Schedule()
    let lane = schedule.lane(forTolerance: ticks(.milliseconds(100)))
    for row in 0..<100 {
      schedule.insert(Schedule.Item(due: ticks(.milliseconds(500)), row: UInt32(row), stamp: 0), lane: lane)
    }
    schedule.insert(Schedule.Item(due: ticks(.seconds(2)), row: 100, stamp: 0), lane: lane)
    var stale = Set<UInt32>()
    for row in 0..<100 {
      stale.insert(UInt32(row))
      _ = schedule.nextWake { stale.contains($0.row) }
    }
    #expect(schedule.nextWake { stale.contains($0.row) } == ticks(servedAt(.seconds(2))))
    #expect(schedule.count == 1)
  }
}
