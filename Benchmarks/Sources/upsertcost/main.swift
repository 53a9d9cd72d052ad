import BenchmarkSupport
import CountdownKit
import Foundation

/// `upsertcost N`: loads N rows into a board with one `upsert` (as an app loads its list from a
/// database) and prints the time per row and the memory per row the board kept. For profiling the
/// load; `compare --scenario 3` measures it beside the strategies apps use today.
func measure(count: Int) {
  let start = ProcessStats.now()
  let engine = CountdownEngine()
  let board = engine.board(of: Int.self, display: .seconds)
  var random = SeededGenerator(seed: 0x5EED)
  var rows: [Int: Countdown<ContinuousClock.Instant>] = [:]
  rows.reserveCapacity(count)
  let now = engine.now
  for id in 0..<count {
    rows[id] = Countdown(end: now.advanced(by: .milliseconds(Int64.random(in: 600_000..<3_000_000, using: &random))))
  }
  let before = ProcessStats.now()
  board.upsert(rows)
  let after = ProcessStats.now()
  rows = [:]
  ProcessStats.trimHeap()
  let kept = ProcessStats.now()
  print(
    String(
      format: "upsert of %d rows: %.3f µs per row (CPU %.3f); resident %.1f B per row, heap %.1f B per row",
      count, (after.wallSeconds - before.wallSeconds) * 1e6 / Double(count),
      (after.cpuSeconds - before.cpuSeconds) * 1e6 / Double(count),
      Double(kept.residentBytes - start.residentBytes) / Double(count),
      Double(kept.heapBytes - start.heapBytes) / Double(count)))
  withExtendedLifetime(board) { engine.shutdown() }
}

measure(count: CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000)
