// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's Getting Started, byte for byte: keep the two
// in step (.ci/check-doc-blocks). UIKit code is in GettingStarted+UIKit.swift.
import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// Prints a countdown's snapshots as they come.
func printSnapshots(of turn: Countdown<ContinuousClock.Instant>, engine: CountdownEngine<ContinuousClock>) async {
  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
  for await snapshot in engine.snapshots(of: turn, display: .seconds) {
    print(snapshot.value.formatted(.countdown(.digital)))
  }
  // end docs
}

@Suite struct KitGettingStartedExamples {
  @Test func testingYourCode() {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/GettingStarted.md
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    clock.advance(by: .seconds(1))        // both clocks move, sleepers due by then wake
    clock.jumpWallClock(by: .seconds(-3_600))  // the user sets the device clock back
    // end docs
    #expect(engine.now == ManualClock.Instant(offset: .seconds(1)))
    engine.shutdown()
  }
}
