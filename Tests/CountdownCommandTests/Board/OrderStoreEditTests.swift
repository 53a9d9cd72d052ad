import CountdownKit
import Foundation
import Testing

@testable import CountdownCommandLine

/// The board's edits go through `StoredCountdown`'s wall-clock operations; these check what they
/// write, at dates given by hand.
@Suite("Board edits through the stored form")
struct OrderStoreEditTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  func makeStore() throws -> (OrderStore, Int64) {
    let directory = FileManager.default.temporaryDirectory.appending(path: "edits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try OrderStore(path: directory.appending(path: "orders.sqlite").path)
    let id = try store.add(title: "Fitting", windowEnd: start.addingTimeInterval(600))
    return (store, id)
  }

  func window(_ store: OrderStore, _ id: Int64) throws -> Result<Deadline, InvalidDeadline>? {
    try store.order(id)?.window
  }

  @Test("Pause keeps the time left, a new deadline while paused changes it, resume counts it from now")
  func pauseRetargetResume() throws {
    let (store, id) = try makeStore()
    #expect(try store.pause(id, now: start.addingTimeInterval(100)))
    #expect(try window(store, id) == .success(.paused(remaining: .seconds(500))))
    #expect(try !store.pause(id, now: start.addingTimeInterval(150)), "already paused")
    #expect(try store.setWindowEnd(of: id, to: start.addingTimeInterval(1_000), now: start.addingTimeInterval(200)))
    #expect(try window(store, id) == .success(.paused(remaining: .seconds(800))), "paused with the time to the new end")
    #expect(try store.resume(id, now: start.addingTimeInterval(300)))
    #expect(try window(store, id) == .success(.until(start.addingTimeInterval(1_100))))
    #expect(try !store.resume(id, now: start.addingTimeInterval(400)), "not paused")
  }

  @Test("A paused order given a deadline already past is paused at zero, not in overtime")
  func pausedPastDeadline() throws {
    let (store, id) = try makeStore()
    try store.pause(id, now: start)
    try store.setWindowEnd(of: id, to: start.addingTimeInterval(-60), now: start)
    #expect(try window(store, id) == .success(.paused(remaining: .zero)))
  }

  @Test("A running order moves to its new deadline")
  func runningRetarget() throws {
    let (store, id) = try makeStore()
    #expect(try !store.setWindowEnd(of: id, to: start.addingTimeInterval(42), now: start))
    #expect(try window(store, id) == .success(.until(start.addingTimeInterval(42))))
  }
}
