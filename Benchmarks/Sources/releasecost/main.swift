import BenchmarkSupport
import CountdownKit
import CountdownTesting
import Foundation

/// `releasecost [COUNTDOWNS] [ROUNDS]`: the fire-and-forget case of issue 10. Each round adds
/// COUNTDOWNS (default 100,000) countdowns of 50 ms with a main-actor callback and drops their
/// handles, then lets them finish on a manual clock. Prints, after each round, how many countdowns the
/// engine still holds and the heap and resident memory against the start: with countdowns released
/// once they are over, both stay flat from round to round (the first round grows the engine's columns
/// and buffers once).
@MainActor
func run(countdowns: Int, rounds: Int) {
  let clock = ManualClock()
  let engine = CountdownEngine.manuallyDriven(by: clock)
  var calls = 0
  let start = ProcessStats.now()
  for round in 1...rounds {
    for _ in 0..<countdowns {
      engine.add(Countdown(duration: .milliseconds(50), startingAt: clock.now), display: .seconds) { _ in calls += 1 }
    }
    engine.serveDue()
    clock.advance(by: .milliseconds(100))
    engine.serveDue()
    let now = ProcessStats.now()
    print(
      "round \(round): engine.count \(engine.count), heap +\((now.heapBytes - start.heapBytes) / 1_024) KiB,"
        + " resident +\((now.residentBytes - start.residentBytes) / 1_024) KiB")
  }
  engine.shutdown()
  print("callbacks: \(calls) (2 per countdown: 1 s, then 0 s)")
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0, radix: 10) }
let numbers = arguments.compactMap { $0 }.filter { $0 > 0 }
guard numbers.count == arguments.count, numbers.count <= 2 else {
  FileHandle.standardError.write(Data("usage: releasecost [COUNTDOWNS] [ROUNDS] (positive whole numbers)\n".utf8))
  exit(2)
}
MainActor.assumeIsolated {
  run(countdowns: numbers.first ?? 100_000, rounds: numbers.count > 1 ? numbers[1] : 5)
}
