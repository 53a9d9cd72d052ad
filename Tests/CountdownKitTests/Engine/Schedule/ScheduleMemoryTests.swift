@testable import CountdownKit
import CountdownTesting
import Foundation
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

  /// A board that made room for its rows before a load in pages: the column of the dates rows follow
  /// and the schedule's heap grow no larger than the room made, where doubling would leave up to half
  /// of them unused; the instants of the few paused rows take room for those rows only.
  @Test func theColumnsAndHeapsOfABoardReservedForItsRowsGrowNoLargerThanItsRows() {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    let rows = 3_000
    board.reserveCapacity(rows)
    let start = clock.currentDate
    for page in stride(from: 0, to: rows, by: 500) {
      board.apply(
        .upserted(
          (page..<page + 500).map { id in
            id % 20 == 0
              ? BoardRow(id: id, deadline: .paused(remaining: .seconds(600)))
              : BoardRow(id: id, deadline: .until(start.addingTimeInterval(Double(600 + id))))
          }))
    }
    #expect(board.count == rows)
    let (pausedAt, targets, heaps) = engine.state.withLock {
      ($0.core.rows.pausedAt.storedCapacity, $0.core.rows.targets.storedCapacity, $0.core.schedule.heapsCapacity)
    }
    // Room for the rows, give or take what the allocator rounds up; doubling would reach 4,096.
    let bound = rows + 64
    #expect(pausedAt < rows / 10, "the paused instants (1 row in 20)")
    #expect(targets <= bound, "the dates' column")
    #expect(heaps >= rows * 19 / 20 && heaps <= bound, "the schedule's heaps hold the running rows")
  }
}
