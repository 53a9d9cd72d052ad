import BenchmarkSupport
import CountdownKit
import CountdownTesting
import Foundation

/// `releasecost [COUNTDOWNS] [ROUNDS]`: the fire-and-forget case of issue 10. Each round adds
/// COUNTDOWNS (default 100,000) countdowns of 50 ms with a main-actor callback and drops their
/// handles, then lets them finish on a manual clock. Prints, after each round, how many countdowns the
/// engine still holds and the heap and resident memory against the start: with countdowns released
/// once they are over, both stay flat from round to round (the first round grows the engine's columns
/// and buffers once). With `--live`, the same on a real engine and clock (`runLive`).
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

/// The same rounds on a real engine (`ContinuousClock`, its own driver thread, deliveries in hops to the
/// main actor), as an app runs them: each round waits in real time until the engine holds nothing.
@MainActor
func runLive(countdowns: Int, rounds: Int) async {
  let engine = CountdownEngine()
  var calls = 0
  var afterFirst: ProcessStats?
  let start = ProcessStats.now()
  for round in 1...rounds {
    for _ in 0..<countdowns {
      engine.add(Countdown(duration: .milliseconds(50), startingAt: engine.now), display: .seconds) { _ in calls += 1 }
    }
    while engine.count > 0 { try? await Task.sleep(for: .milliseconds(10)) }
    // Let the last deliveries of the round reach the main actor.
    try? await Task.sleep(for: .milliseconds(100))
    let now = ProcessStats.now()
    let growth =
      afterFirst.map {
        " (\((now.residentBytes - $0.residentBytes) / (countdowns * (round - 1))) B per countdown since round 1)"
      } ?? ""
    if round == 1 { afterFirst = now }
    if ProcessInfo.processInfo.environment["RELEASECOST_MALLOC_STATS"] != nil {
      FileHandle.standardError.write(Data("-- round \(round)\n".utf8))
      ProcessStats.printMallocStats()
    }
    print(
      "round \(round): engine.count \(engine.count), heap +\((now.heapBytes - start.heapBytes) / 1_024) KiB,"
        + " resident +\((now.residentBytes - start.residentBytes) / 1_024) KiB\(growth)")
  }
  engine.shutdown()
  print("callbacks: \(calls) (2 per countdown: 1 s, then 0 s)")
}

var arguments = Array(CommandLine.arguments.dropFirst())
let live = arguments.contains("--live")
arguments.removeAll { $0 == "--live" }
let numbers = arguments.compactMap { Int($0, radix: 10) }.filter { $0 > 0 }
guard numbers.count == arguments.count, numbers.count <= 2 else {
  FileHandle.standardError.write(
    Data("usage: releasecost [COUNTDOWNS] [ROUNDS] [--live] (positive whole numbers)\n".utf8))
  exit(2)
}
let (countdowns, rounds) = (numbers.first ?? 100_000, numbers.count > 1 ? numbers[1] : 5)
if live {
  await runLive(countdowns: countdowns, rounds: rounds)
} else {
  await run(countdowns: countdowns, rounds: rounds)
}
