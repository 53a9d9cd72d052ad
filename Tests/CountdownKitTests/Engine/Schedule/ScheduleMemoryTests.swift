@testable import CountdownKit
import CountdownTesting
import Testing

/// What the engine keeps allocated once countdowns are gone.
@MainActor
@Suite struct ScheduleMemoryTests {
  /// Rounds of fire-and-forget countdowns, each round landing in another slot of the timing wheel:
  /// the wheel must not keep a buffer in every slot it ever used (it once kept up to 64 buffers as
  /// large as the largest slot served, one per slot).
  @Test func theWheelKeepsAFewBuffersNotOnePerSlotItEverUsed() {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    let perRound = 2_000
    var capacities: [Int] = []
    for _ in 0..<40 {
      for _ in 0..<perRound {
        engine.add(Countdown(duration: .milliseconds(50), startingAt: clock.now), display: .seconds) { _ in }
      }
      engine.serveDue()
      clock.advance(by: .milliseconds(130))
      engine.serveDue()
      capacities.append(engine.state.withLock { $0.core.schedule.storedCapacity })
    }
    #expect(engine.count == 0)
    // Room for the items of a few rounds (the spare buffers, each about one round's size), however
    // many rounds went through the wheel.
    let bound = (Schedule.spareLimit + 2) * perRound * 2
    #expect(capacities.max() ?? 0 <= bound, "capacities after each round: \(capacities)")
    #expect(capacities.last == capacities[capacities.count - 10], "flat over the last rounds: \(capacities)")
  }
}
