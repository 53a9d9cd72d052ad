import Benchmark
import CountdownCore
import CountdownKit
import CountdownTesting
import Foundation

// Micro-benchmarks of the engine through its public API, on a ManualClock so that time moves only
// when a benchmark says so. Run with `swift package --package-path Benchmarks benchmark`.
//
// Each benchmark does `scaledIterations` operations per measured iteration (×1,000 with
// `scalingFactor: .kilo`), so the figures package-benchmark prints are per operation.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, .memoryLeaked],
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000
  )

  // Adding a countdown that only reports its completion (an unbound row), then cancelling it.
  Benchmark("add+cancel, completion only") { benchmark in
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      let handle = engine.add(Countdown(end: clock.now.advanced(by: .seconds(600 + index)))) {}
      handle.cancel()
    }
    benchmark.stopMeasurement()
    engine.shutdown()
  }

  // Adding a bound countdown (renders at once: one snapshot to a stream), then cancelling it.
  Benchmark("add+cancel, bound to a snapshot stream") { benchmark in
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      let stream = engine.snapshots(
        of: Countdown(end: clock.now.advanced(by: .seconds(600 + index))), display: .seconds)
      blackHole(stream)
    }
    benchmark.stopMeasurement()
    engine.shutdown()
  }

  // A board row upserted and removed, a batch each: what a list's refresh costs per row.
  Benchmark("board set+remove row") { benchmark in
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    let board = engine.board(of: Int.self, display: .seconds)
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      board.apply(.upserted([BoardRow(id: index, deadline: .after(.seconds(600 + index)))]))
      board.apply(.removed([index]))
    }
    benchmark.stopMeasurement()
    engine.shutdown()
  }

  // Rebinding a cell's slot to another row of a board of 10,000 rows: scrolling.
  Benchmark("slot rebind (board of 10k rows)") { benchmark async in
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    let board = engine.board(of: Int.self, display: .seconds)
    board.apply(.upserted((0..<10_000).map { BoardRow(id: $0, deadline: .after(.seconds(600 + $0))) }))
    let iterations = benchmark.scaledIterations
    benchmark.startMeasurement()
    // Slots live on the main actor.
    let shown = await MainActor.run {
      let slot = board.slot()
      var shown = 0
      for index in iterations {
        slot.bind(to: index % 10_000) { shown &+= Int($0.value.components.seconds) }
      }
      slot.unbind()
      return shown
    }
    benchmark.stopMeasurement()
    blackHole(shown)
    engine.shutdown()
  }

  // One wake-up of the driver serving 1,000 countdowns whose value changes: the per-change cost
  // (scheduling, rendering, yielding to a stream), plus one driver wake-up per 1,000 changes.
  Benchmark(
    "serve 1k changes in one wake-up (per change)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 200)
  ) { benchmark async in
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    var generator = SystemRandomNumberGenerator()
    let streams = benchmark.scaledIterations.map { _ in
      engine.snapshots(
        of: Countdown(end: clock.now.advanced(by: .seconds(Double.random(in: 600..<3_000, using: &generator)))),
        display: .seconds)
    }
    // Let the driver go to sleep before measuring.
    while clock.sleeperCount == 0 { await Task.yield() }
    let before = engine.statistics.wakeUps
    benchmark.startMeasurement()
    clock.advance(by: .seconds(1))
    while engine.statistics.wakeUps == before || clock.sleeperCount == 0 { await Task.yield() }
    benchmark.stopMeasurement()
    blackHole(streams)
    engine.shutdown()
  }
}
