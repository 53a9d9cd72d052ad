import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// The manual clock that the engine tests (and users' tests) run on.
@Suite(.timeLimit(.minutes(5)))
struct ManualClockTests {
  @Test func advancingWakesSleepersDueByThenInOrderOfTheirDeadlines() async throws {
    let clock = ManualClock()
    let far = Task { try await clock.sleep(until: .at(.seconds(10))) }
    let near = Task { try await clock.sleep(until: .at(.seconds(1))) }
    while clock.sleeperCount < 2 { await Task.yield() }
    #expect(clock.sleeperDeadlines == [.at(.seconds(1)), .at(.seconds(10))])
    clock.advance(by: .seconds(1))
    try await near.value
    #expect(clock.sleeperDeadlines == [.at(.seconds(10))])
    clock.advance(to: .at(.seconds(10)))
    try await far.value
    #expect(clock.sleeperCount == 0)
  }

  @Test func wallClockJumpsLeaveMonotonicTimeAlone() {
    let clock = ManualClock()
    let date = clock.currentDate
    clock.jumpWallClock(by: .seconds(-3_600))
    #expect(clock.now == .at(.zero))
    #expect(clock.currentDate == date.addingTimeInterval(-3_600))
    clock.advance(by: .seconds(2))
    #expect(clock.now == .at(.seconds(2)))
    #expect(clock.currentDate == date.addingTimeInterval(-3_598))
  }

  @Test func everyCancelledSleeperWakesWithCancellationEvenWhenManySleepAtOnce() async {
    let clock = ManualClock()
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<2_000 {
        group.addTask {
          do {
            try await clock.sleep(until: .at(.seconds(3_600)))
            return false
          } catch {
            return error is CancellationError
          }
        }
      }
      group.cancelAll()
      for await wasCancelled in group {
        #expect(wasCancelled)
      }
    }
    #expect(clock.sleeperCount == 0)
  }
}
