import Benchmark
import CountdownCore
import Foundation

// Micro-benchmarks of CountdownCore's pure values: no clock, no engine. Run with
// `swift package --package-path Benchmarks benchmark --target CoreMicro`.
//
// Each benchmark does `scaledIterations` operations per measured iteration (×1,000 with
// `scalingFactor: .kilo`), so the figures package-benchmark prints are per operation.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000
  )

  // The marketplace widget's WidgetKit timeline for a day: a two-hour fitting window read by the
  // `.coarse` display ("2 hours", "1.5 hours", "60 min" … "1 min", then 0): 63 entries.
  let now = Date(timeIntervalSinceReferenceDate: 825_000_000)
  Benchmark("marketplace widget: a day's timeline (63 entries)") { benchmark in
    var entries = 0
    for index in benchmark.scaledIterations {
      let start = now.addingTimeInterval(Double(index % 1_000))
      let day = try AdaptiveDisplay.coarse.changes(
        until: start.addingTimeInterval(7_200), from: start, through: start.addingTimeInterval(86_400), limit: 200)
      entries &+= day.count
    }
    precondition(entries == 63 * benchmark.scaledIterations.count, "expected 63 entries per timeline")
    blackHole(entries)
  }

  // The same timeline with each entry's text formatted, as the widget's view will show it.
  let english = Locale(identifier: "en_US")
  Benchmark("marketplace widget: a day's timeline, each entry formatted") { benchmark in
    var characters = 0
    for index in benchmark.scaledIterations {
      let start = now.addingTimeInterval(Double(index % 1_000))
      let day = try AdaptiveDisplay.coarse.changes(
        until: start.addingTimeInterval(7_200), from: start, through: start.addingTimeInterval(86_400), limit: 200)
      for entry in day { characters &+= entry.value.formatted(.countdown(.coarse, locale: english)).utf8.count }
    }
    blackHole(characters)
  }

  // A seconds display's schedule, per change: what a lazy walk costs per element.
  Benchmark("changes(of: .seconds) per element") { benchmark in
    let start = ContinuousClock.now
    let countdown = Countdown(end: start.advanced(by: .seconds(1_000_000)))
    var iterator = countdown.changes(of: .seconds, from: start, through: start.advanced(by: .seconds(900_000)))
      .makeIterator()
    var seen = 0
    for _ in benchmark.scaledIterations {
      if iterator.next() != nil { seen &+= 1 }
    }
    blackHole(seen)
  }
}
