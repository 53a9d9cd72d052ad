import BenchmarkSupport
import CountdownKit
import CountdownTesting
import Foundation

/// `changecost N SECONDS`: N countdowns with a seconds display (ends 10–50 min away, random
/// sub-second phases), each with a main-actor callback that counts its calls, served by hand on a
/// manual clock at the end of each of the engine's time slots (every 93.75 ms, as its driver wakes
/// for a seconds display) for SECONDS seconds. Prints the number of changes delivered. Run twice
/// under callgrind with different SECONDS: the difference in instructions over the difference in
/// changes is the cost of one delivered change, everything included (scheduling, serving, the
/// mailbox, the main-actor walk, the callback), set-up excluded. `scripts/instructions-per-change`
/// does exactly that.
final class Tally {
  var calls = 0
}

@MainActor
func run(countdowns: Int, seconds: Int) -> Int {
  let clock = ManualClock()
  let engine = CountdownEngine.manuallyDriven(by: clock)
  let tally = Tally()
  var random = SeededGenerator(seed: 0x5EED)
  let before = ProcessStats.now()
  for _ in 0..<countdowns {
    let end = clock.now.advanced(
      by: .seconds(Int64.random(in: 600..<3_000, using: &random))
        + .nanoseconds(Int64.random(in: 0..<1_000_000_000, using: &random)))
    engine.add(Countdown(end: end), display: .seconds) { _ in tally.calls += 1 }
  }
  let added = ProcessStats.now()
  engine.serveDue()
  let served = ProcessStats.now()
  if ProcessInfo.processInfo.environment["CHANGECOST_MEMORY"] != nil {
    let perCountdown = { (stats: ProcessStats) in
      "heap \((stats.heapBytes - before.heapBytes) / countdowns) B, RSS \((stats.residentBytes - before.residentBytes) / countdowns) B"
    }
    print("added: \(perCountdown(added)); first serve: \(perCountdown(served))")
  }
  let first = tally.calls
  for _ in 0..<(seconds * 16_000 / 1_500) {
    clock.advance(by: .microseconds(93_750))
    engine.serveDue()
  }
  engine.shutdown()
  return tally.calls - first
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: changecost COUNTDOWNS SECONDS\n".utf8))
  exit(2)
}
let changes = MainActor.assumeIsolated { run(countdowns: arguments[0], seconds: arguments[1]) }
print("changes delivered: \(changes)")
