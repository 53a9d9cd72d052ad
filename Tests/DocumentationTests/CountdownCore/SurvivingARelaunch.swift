// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's article on surviving a relaunch, byte for
// byte: keep the two in step (.ci/check-doc-blocks). The tests run them.
import CountdownKit
import Foundation
import Testing

// docs: Sources/CountdownCore/CountdownCore.docc/Articles/SurvivingARelaunch.md
func save(_ handle: CountdownHandle<ContinuousClock>, engine: CountdownEngine<ContinuousClock>) throws {
  guard let countdown = handle.countdown else { return }
  let stored = try countdown.stored(at: engine.now, on: engine.timeline)
  UserDefaults.standard.set(try JSONEncoder().encode(stored), forKey: "turn")
}

func restore(engine: CountdownEngine<ContinuousClock>) throws -> Countdown<ContinuousClock.Instant>? {
  guard let data = UserDefaults.standard.data(forKey: "turn") else { return nil }
  let stored = try JSONDecoder().decode(StoredCountdown.self, from: data)
  return stored.restored(at: engine.now, on: engine.timeline)
}
// end docs

/// Puts the stored order back on the board, or says why it cannot.
@MainActor func restoreRow(
  of order: Order, from data: Data, on board: CountdownBoard<Order.ID, AdaptiveDisplay, ContinuousClock>,
  engine: CountdownEngine<ContinuousClock>
) {
  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/SurvivingARelaunch.md
  do {
    let stored = try JSONDecoder().decode(StoredCountdown.self, from: data)
    let restored = stored.restored(at: engine.now, on: engine.timeline)
    board.apply(.upserted([BoardRow(id: order.id, countdown: restored, at: engine.now)]))
  } catch {
    print("Order \(order.id): \(error)")   // e.g. "The stored countdown's total is -60.0 seconds; …"
  }
  // end docs
}

@MainActor @Suite(.serialized) struct SurvivingARelaunchExamples {
  @Test func saveAndRestore() throws {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    defer { UserDefaults.standard.removeObject(forKey: "turn") }
    let handle = engine.add(Countdown(duration: .seconds(90), startingAt: engine.now)) {}
    handle.pause()
    try save(handle, engine: engine)
    let restored = try #require(try restore(engine: engine))
    #expect(restored.isPaused && restored.remaining(at: engine.now) == handle.countdown?.remaining(at: engine.now))
  }

  @Test func badDataLeavesTheBoardAlone() throws {
    let engine = CountdownEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Order.ID.self, display: .adaptive)
    let order = Order(id: 4, title: "", fittingEndsAt: Date())
    restoreRow(of: order, from: Data(#"{"format": 1, "state": "running", "end": 1800000000, "total": {"seconds": -60, "attoseconds": 0}}"#.utf8), on: board, engine: engine)
    #expect(board.countdown(for: 4) == nil)
    restoreRow(of: order, from: Data(#"{"format": 1, "state": "paused", "remaining": {"seconds": 60, "attoseconds": 0}, "since": 1800000000}"#.utf8), on: board, engine: engine)
    #expect(board.countdown(for: 4)?.remaining(at: engine.now) == .seconds(60))
  }

  @Test func onTheWallClockAlone() throws {
    let stored = try StoredCountdown(end: Date().addingTimeInterval(1_800), total: .seconds(7_200))
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/SurvivingARelaunch.md
    let now = Date()
    let paused = try stored.paused(at: now)           // "pause order 7", from another process
    let resumed = try paused.resumed(at: now.addingTimeInterval(600))
    let end = resumed.end                             // ten minutes later than before
    // end docs
    let before = try #require(stored.end)
    #expect(abs(try #require(end).timeIntervalSince(before) - 600) < 1e-6)
  }
}
