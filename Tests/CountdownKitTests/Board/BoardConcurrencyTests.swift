import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A board's operations are atomic for other threads.
@Suite(.timeLimit(.minutes(5)))
struct BoardConcurrencyTests {
  @Test func aRefreshIsSeenWholeOrNotAtAllByOtherThreads() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    let pages = [Set(0..<500), Set(500..<1_000)]
    let countdowns = pages.map { page in
      Dictionary(uniqueKeysWithValues: page.map { ($0, Countdown(duration: .seconds(60), startingAt: clock.now)) })
    }
    let refreshes = countdowns.map {
      BoardChange.reloaded(CountdownBoard<Int, RoundedDisplay, ManualClock>.rows($0, at: clock.now))
    }
    board.apply(refreshes[0])
    let reader = Task.detached {
      var torn = 0
      for _ in 0..<2_000 where !pages.contains(Set(board.ids)) { torn += 1 }
      return torn
    }
    for refresh in 0..<200 { board.apply(refreshes[refresh % 2]) }
    #expect(await reader.value == 0, "another thread saw a half-applied refresh")
    #expect(engine.count == 500)
  }

  @Test func aBatchOfManyRowsIsOneStep() {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    var rows: [Int: Countdown<ManualClock.Instant>] = [:]
    for id in 0..<100_000 { rows[id] = Countdown(duration: .seconds(Int64(60 + id % 600)), startingAt: clock.now) }
    board.put(rows, at: clock.now)
    #expect(board.count == 100_000)
    #expect(engine.count == 100_000)
    #expect(board.countdown(for: 12_345)?.remaining(at: clock.now) == .seconds(60 + 12_345 % 600))
    board.put([12_345: Countdown(duration: .seconds(5), startingAt: clock.now)], at: clock.now)
    #expect(board.countdown(for: 12_345)?.remaining(at: clock.now) == .seconds(5))
    #expect(board.count == 100_000)
  }
}
