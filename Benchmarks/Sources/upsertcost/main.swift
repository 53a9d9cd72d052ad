import BenchmarkSupport
import CountdownKit
import Foundation

/// `upsertcost N [PAGES]`: loads N rows into a board with one batch (`board.apply(.upserted(rows))`,
/// as an app loads its list from a database), or with PAGES batches of N / PAGES rows each (as a
/// follower loads a table page by page), and prints the time per row and the memory per row the board
/// kept. For profiling the load; `compare --scenario 3` measures it beside the strategies apps use
/// today.
func measure(count: Int, pages: Int) {
  let start = ProcessStats.now()
  let engine = CountdownEngine()
  let board = engine.board(of: Int.self, display: .seconds)
  var random = SeededGenerator(seed: 0x5EED)
  var pageRows = Array(repeating: [BoardRow<Int>](), count: pages)
  for page in pageRows.indices { pageRows[page].reserveCapacity(count / pages + 1) }
  let now = engine.now
  for id in 0..<count {
    pageRows[id * pages / count].append(
      BoardRow(id: id, deadline: .after(.milliseconds(Int64.random(in: 600_000..<3_000_000, using: &random)))))
  }
  let before = ProcessStats.now()
  for rows in pageRows { board.apply(.upserted(rows), asOf: now) }
  let after = ProcessStats.now()
  pageRows = []
  ProcessStats.trimHeap()
  let kept = ProcessStats.now()
  print(
    String(
      format:
        "upsert of %d rows in %d batches: %.3f µs per row (CPU %.3f); resident %.1f B per row, heap %.1f B per row",
      count, pages, (after.wallSeconds - before.wallSeconds) * 1e6 / Double(count),
      (after.cpuSeconds - before.cpuSeconds) * 1e6 / Double(count),
      Double(kept.residentBytes - start.residentBytes) / Double(count),
      Double(kept.heapBytes - start.heapBytes) / Double(count)))
  withExtendedLifetime(board) { engine.shutdown() }
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
let count = arguments.first.flatMap { $0 } ?? 1_000_000
let pages = arguments.dropFirst().first.flatMap { $0 } ?? 1
guard count > 0, (1...count).contains(pages) else {
  print("usage: upsertcost [ROWS > 0] [PAGES, 1 to ROWS]")
  exit(64)
}
measure(count: count, pages: pages)
