import CountdownKit
import CountdownTesting
import Testing

/// A row shown in several places at once (a list cell and a detail screen) is live in all of them.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct RowInSeveralPlacesTests {
  func countdown(_ seconds: Int64, _ clock: ManualClock) -> Countdown<ManualClock.Instant> {
    Countdown(duration: .seconds(seconds), startingAt: clock.now)
  }

  @Test func aListSlotAndADetailSlotOnOneRowBothRenderEverySecond() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    board.put(7, countdown(10, clock), at: clock.now)
    var list: [Duration] = []
    var detail: [Duration] = []
    let listSlot = board.slot()
    let detailSlot = board.slot()
    listSlot.bind(to: 7) { list.append($0.value) }
    detailSlot.bind(to: 7) { detail.append($0.value) }
    for _ in 0..<3 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(list == [.seconds(10), .seconds(9), .seconds(8), .seconds(7)])
    #expect(detail == [.seconds(10), .seconds(9), .seconds(8), .seconds(7)])
    #expect(listSlot.boundID == 7 && detailSlot.boundID == 7)
  }

  @Test func twoRowModelsOnOneRowBothUpdate() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    board.put(7, countdown(10, clock), at: clock.now)
    let list = CountdownRowModel(board: board)
    let detail = CountdownRowModel(board: board)
    list.show(7)
    detail.show(7)
    // The list row appears again (SwiftUI calls onAppear again) while the detail is open.
    list.show(7)
    for _ in 0..<3 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(list.value == .seconds(7))
    #expect(detail.value == .seconds(7))
  }
}
