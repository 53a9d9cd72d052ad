// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's Lists and Cells article, byte for byte: keep
// the two in step (.ci/check-doc-blocks). UIKit and SwiftUI code is in ListsAndCells+UI.swift.
import CountdownKit
import Foundation
import Testing

@MainActor @Suite struct ListsAndCellsExamples {
  let order = Order(id: 1, title: "Fitting: Ada L.", fittingEndsAt: Date().addingTimeInterval(3_600))
  let walkIn = Order(id: 2, title: "Walk-in: Sam K.", fittingEndsAt: Date().addingTimeInterval(600))

  @Test func rowsByID() {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let page = [order, Order(id: 3, title: "Fitting: Bo M.", fittingEndsAt: Date().addingTimeInterval(60))]
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    let board = engine.board(of: Order.ID.self, display: .adaptive)
    // end docs

    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    board.apply(.upserted(page.map { order in        // adds rows or updates them, leaves the rest
      BoardRow(id: order.id, deadline: .until(order.fittingEndsAt), total: .seconds(7_200))
    }))
    board.apply(.upserted([BoardRow(id: walkIn.id, deadline: .after(.seconds(480)), total: .seconds(480))]))
    board.apply(.removed([order.id]))                // stops; its completion will not fire
    // end docs
    #expect(board.countdown(for: order.id) == nil && board.countdown(for: walkIn.id) != nil)
    #expect(board.countdown(for: 3) != nil)
  }

  @Test func finishedRows() {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Order.ID.self, display: .adaptive)
    let store = OrderDatabase()
    let api = API()
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    let finishing = board.onFinish { id in
      store.markExpired(id)          // on the main actor, after the slots of that wake-up updated
    }

    let expired = board.finished()   // subscribes now: no row that finishes from here on is missed
    Task {
      for await id in expired { await api.expire(id) }
    }
    // end docs
    finishing.cancel()
  }
}
