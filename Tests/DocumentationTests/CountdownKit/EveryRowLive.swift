// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's article on boards that keep every row's value,
// byte for byte: keep the two in step (.ci/check-doc-blocks). UIKit and SwiftUI code is in
// EveryRowLive+UI.swift; the tests here run it against the stand-ins on Linux.
import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// What the grid example writes to: each lot's time left.
@MainActor final class LotsGrid {
  private(set) var timeLeft: [Order.ID: (Duration, paused: Bool)] = [:]
  func setTimeLeft(_ value: Duration, paused: Bool, for id: Order.ID) { timeLeft[id] = (value, paused) }
}

@MainActor @Suite struct EveryRowLiveExamples {
  @Test func gridGetsEveryChangedRow() async throws {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock, tolerance: .milliseconds(100), drivesItself: false)
    defer { engine.shutdown() }
    let grid = LotsGrid()
    let rows = (1...3).map { id in BoardRow(id: id, deadline: .after(.seconds(10 * id))) }
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/EveryRowLive.md
    let lots = engine.board(of: Order.ID.self, display: .seconds, values: .everyRow)
    let redrawing = lots.onChanges { changes in   // keep `redrawing` as long as the grid shows the lots
      for change in changes {
        grid.setTimeLeft(change.value, paused: change.isPaused, for: change.id)
      }
    }
    lots.apply(.upserted(rows))      // [BoardRow<Order.ID>]: each row's first value is in the next batch
    // end docs
    defer { redrawing.cancel() }
    engine._serveDue()
    #expect(grid.timeLeft.mapValues(\.0) == [1: .seconds(10), 2: .seconds(20), 3: .seconds(30)])
    clock.advance(by: .milliseconds(1_100))   // the change at 1 s comes within the 100 ms tolerance
    engine._serveDue()
    #expect(grid.timeLeft.mapValues(\.0) == [1: .seconds(9), 2: .seconds(19), 3: .seconds(29)])
    #expect(lots.value(of: 2) == .seconds(19))
  }

  @Test func serviceGetsBatches() async throws {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock, tolerance: .milliseconds(100), drivesItself: false)
    defer { engine.shutdown() }
    let api = API()
    let lots = engine.board(of: Order.ID.self, display: .seconds, values: .everyRow)
    let published = Task {
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/EveryRowLive.md
      Task {
        for await changes in lots.changes() {
          let secondsLeft = Dictionary(changes.map { ($0.id, $0.value.components.seconds) }) { $1 }
          await api.publishTimesLeft(secondsLeft)      // one message per wake-up, not per row
        }
      }
      // end docs
    }
    _ = published
    var batch = lots.changes().makeAsyncIterator()
    lots.apply(.upserted([BoardRow(id: 7, deadline: .after(.seconds(5)))]))
    engine._serveDue()
    let first = await batch.next()
    #expect(first.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.id, $0.value.components.seconds) }) } == [7: 5])
  }

  #if os(Linux)
    @Test func visibleCellsThatChangedAreReconfigured() {
      // Rows 2 (visible) and 3 (not) change at the first wake-up; row 1 (visible) is not on the board.
      #expect(reconfiguredItemsOfABatch() == [2])
    }

    @Test func headerCountsTheClosingOrders() async throws {
      let now = Date()
      let orders = [2, 4, 20, 90].map { minutes in
        Order(id: minutes, title: "Fitting", fittingEndsAt: now.addingTimeInterval(Double(minutes) * 60))
      }
      let engine = CountdownEngine()
      defer { engine.shutdown() }
      let header = EveryRowLiveArticle.UrgencyHeader(engine: engine, orders: orders)
      #expect(header.closing == 2)
    }
  #endif
}
