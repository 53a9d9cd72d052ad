import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// `SnapshotDelivery`: by default a subscriber hears of what its display shows; with
/// `.whenCountdownChanges`, of every change made to the countdown as well.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct SnapshotDeliveryTests {
  @Test(arguments: [SnapshotDelivery.whenShownChanges, .whenCountdownChanges])
  func changesThatLeaveTheValueAsItIsReachOnlyTheSubscribersThatAskedForThem(delivery: SnapshotDelivery) {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var seen: [Duration] = []
    let handle = engine.add(
      Countdown(duration: .milliseconds(10_500), startingAt: clock.now), display: .seconds, delivery: delivery
    ) { seen.append($0.remaining) }
    engine._serveDue()
    handle.extend(by: .milliseconds(100))
    engine._serveDue()
    handle.retarget(to: clock.now.advanced(by: .milliseconds(10_700)))
    engine._serveDue()
    // Two changes before the main actor runs are one call, with the newest.
    handle.extend(by: .milliseconds(100))
    handle.extend(by: .milliseconds(100))
    engine._serveDue()
    switch delivery {
    case .whenShownChanges:
      #expect(seen == [.milliseconds(10_500)])
    case .whenCountdownChanges:
      #expect(seen == [.milliseconds(10_500), .milliseconds(10_600), .milliseconds(10_700), .milliseconds(10_900)])
    }
  }

  @Test func aDateMovedByTheWallClockIsReported() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var seen: [Duration] = []
    try engine.add(
      until: clock.currentDate.addingTimeInterval(3_600.25), display: .minutes, delivery: .whenCountdownChanges
    ) { seen.append($0.remaining) }
    engine._serveDue()
    // The user sets the device clock back 10 s: an hour to the date becomes an hour and ten seconds,
    // the same whole minutes.
    clock.jumpWallClock(by: .seconds(-10))
    engine.wallClockDidChange()
    engine._serveDue()
    #expect(seen == [.milliseconds(3_600_250), .milliseconds(3_610_250)])
  }
}
