import CountdownKit
import Foundation
import Testing

@testable import CountdownCommandLine

/// The status line's counts over every window: the sorted ends they are ranks in, and the counts.
@Suite("Window counts")
struct WindowCountsTests {
  @Test("Sorted ends answer as a sorted array does, through inserts, removals and chunk splits")
  func sortedEndsMatchAnArray() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("sortedEndsMatchAnArray seed: \(seed)")
    var random = SplitMix64(seed: seed)
    // Duplicates, and enough distinct values to split chunks (of 1,024 distinct values) many times.
    let built = (0..<4_000).map { _ in Double(Int.random(in: 0..<1_500, using: &random)) }
    var ends = SortedEnds(built)
    var truth = built.sorted()
    for step in 0..<6_000 {
      let value = Double(Int.random(in: -10..<3_500, using: &random))
      if Bool.random(using: &random) {
        ends.insert(value)
        truth.insert(value, at: truth.firstIndex { $0 > value } ?? truth.count)
      } else {
        let removed = ends.remove(value)
        if let index = truth.firstIndex(of: value) {
          truth.remove(at: index)
          #expect(removed, "step \(step): \(value) is there")
        } else {
          #expect(!removed, "step \(step): \(value) is not there")
        }
      }
      guard step % 3 == 0 else { continue }
      let probe =
        Double(Int.random(in: -20..<3_520, using: &random)) + 0.5 * Double(Int.random(in: 0...1, using: &random))
      #expect(ends.count(atMost: probe) == truth.count { $0 <= probe }, "step \(step), probe \(probe)")
      #expect(ends.first(after: probe) == truth.first { $0 > probe }, "step \(step), probe \(probe)")
    }
    #expect(ends.values == truth)
    #expect(ends.count == truth.count)
    #expect(ends.chunkCount >= Set(truth).count / SortedEnds.chunkLimit + 1, "chunks were split")
  }

  @Test("Emptied chunks go, and an empty set answers zero and nothing")
  func emptying() {
    var ends = SortedEnds((0..<2_500).map(Double.init))
    for value in (0..<2_500).reversed() {
      let removed = ends.remove(Double(value))
      #expect(removed)
    }
    #expect(ends.count == 0 && ends.values.isEmpty)
    #expect(ends.count(atMost: 1e9) == 0 && ends.first(after: -1e9) == nil)
    let removedMissing = ends.remove(3)
    #expect(!removedMissing)
    ends.insert(7)
    #expect(ends.values == [7] && ends.count(atMost: 7) == 1 && ends.count(atMost: 6.5) == 0)
  }

  @Test("Counts are ranks of the running ends, boundaries included, plus paused windows by their phase")
  func counts() throws {
    let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var counts = WindowCounts()
    func until(_ seconds: Double) -> Deadline { .until(now.addingTimeInterval(seconds)) }
    for seconds in [-5.0, 0, 0.001, 299, 300, 301, 1_799, 1_800, 1_801, 50_000] { counts.add(until(seconds)) }
    counts.add(.paused(remaining: .seconds(100)))
    counts.add(.paused(remaining: .seconds(1_000)))
    counts.add(.paused(remaining: .seconds(4_000)))
    counts.add(.paused(remaining: .zero))
    #expect(counts.counts(at: now) == nil, "unknown until the load ends")
    #expect(counts.nextChange(after: now) == nil)
    counts.remove(until(301))
    counts.endLoad()
    // Running: 0.001, 299, 300 (≤ 5 min), 1,799, 1,800 (≤ 30 min); ended at 0 and before: not counted.
    let atNow = counts.counts(at: now)
    #expect(atNow?.underHalfHour == 5 + 2 && atNow?.underFiveMinutes == 3 + 1)
    // The next change: the window at 0.001 ends.
    #expect(counts.nextChange(after: now) == now.addingTimeInterval(0.001))
    // One second on: 0.001 has ended, 301 was removed, 1,801 has 1,800 left (in), 301's slot is empty.
    let later = counts.counts(at: now.addingTimeInterval(1))
    #expect(later?.underHalfHour == 5 + 2 && later?.underFiveMinutes == 2 + 1)
    counts.remove(until(1_800))
    counts.remove(.paused(remaining: .seconds(100)))
    counts.add(.paused(remaining: .seconds(200)))
    let edited = counts.counts(at: now)
    #expect(edited?.underHalfHour == 4 + 2 && edited?.underFiveMinutes == 3 + 1)
    counts.rebuild([until(10), until(50_000)])
    #expect(try #require(counts.counts(at: now)) == (underHalfHour: 1, underFiveMinutes: 1))
    #expect(counts.nextChange(after: now) == now.addingTimeInterval(10))
    // After the window at 10 ends, the next change is the other entering its last half hour.
    #expect(counts.nextChange(after: now.addingTimeInterval(10)) == now.addingTimeInterval(50_000 - 1_800))
  }

  @Test("The boards set one wake-up for the next moment a count changes, and move it for an earlier one")
  @MainActor
  func wakeUps() {
    let boards = OrderBoards(locale: Locale(identifier: "en_US"))
    defer { boards.shutdown() }
    var calls = 0
    boards.watchCounts { calls += 1 }
    let now = Date()
    let end = now.addingTimeInterval(3 * 3_600)
    boards.apply(
      .changed([OrderTimes(id: 1, window: .success(.until(end)), eventAt: nil)], removed: [], isFirstLoad: true))
    #expect(boards.countsWakeUp == nil, "none while the counts are unknown")
    boards.apply(.loaded(unreadable: 0))
    #expect(boards.countsWakeUp == end.addingTimeInterval(-1_800), "when #1 enters its last half hour")
    // A window that ends later changes nothing; one whose last five minutes begin sooner moves the wake-up.
    let later = now.addingTimeInterval(5 * 3_600)
    boards.apply(
      .changed([OrderTimes(id: 2, window: .success(.until(later)), eventAt: nil)], removed: []))
    #expect(boards.countsWakeUp == end.addingTimeInterval(-1_800))
    let soon = now.addingTimeInterval(3_600)
    boards.apply(
      .changed([OrderTimes(id: 3, window: .success(.until(soon)), eventAt: nil)], removed: []))
    #expect(boards.countsWakeUp == soon.addingTimeInterval(-1_800))
    // The wake-up (called here as the engine would at that moment) tells the view and sets the next one:
    // #3 still enters its last half hour first, as no time has passed.
    boards.countsChanged()
    #expect(calls == 1)
    #expect(boards.countsWakeUp == soon.addingTimeInterval(-1_800))
    // With every window removed, no wake-up is needed; the one set fires once and sets none.
    boards.apply(.changed([], removed: [1, 2, 3]))
    boards.countsChanged()
    #expect(calls == 2 && boards.countsWakeUp == nil)
  }

  @Test("What a board gives back for a row is what was put there: the same date, or the time left")
  func boardRowsReadBack() throws {
    let engine = CountdownEngine(clock: ContinuousClock())
    defer { engine.shutdown() }
    let board = engine.board(of: Int64.self, display: OrderRow.phases)
    let end = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7)
    board.apply(
      .changed(
        upserted: [
          BoardRow(id: 1, deadline: .until(end), total: .seconds(7_200)),
          BoardRow(id: 2, deadline: .paused(remaining: .milliseconds(90_500))),
        ], removed: []))
    #expect(board.row(for: 1) == BoardRow(id: 1, deadline: .until(end), total: .seconds(7_200)))
    #expect(board.row(for: 2) == BoardRow(id: 2, deadline: .paused(remaining: .milliseconds(90_500))))
    #expect(board.row(for: 3) == nil)
    engine.wallClockDidChange()
    #expect(board.row(for: 1)?.deadline == .until(end), "a date row keeps its date")
  }
}
