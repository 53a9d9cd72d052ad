import CountdownKit
import Foundation

/// `handlecost N`: the main thread's CPU time per call, in µs, of adding N countdowns (a seconds
/// display, a main-actor callback) to an engine on the `ContinuousClock`, then extending each by a
/// second, then cancelling each, in the order they were added: what an app pays to load, move and drop
/// a long list of countdowns one by one. The engine drives itself; its driver's work is not counted.
final class Tally: @unchecked Sendable {
  var calls = 0
}

/// CPU time of the calling thread, in seconds.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 1, let count = arguments.first, count > 0 else {
  FileHandle.standardError.write(Data("usage: handlecost COUNTDOWNS\n".utf8))
  exit(2)
}
MainActor.assumeIsolated {
  let engine = CountdownEngine()
  let tally = Tally()
  let now = engine.now
  var handles: [CountdownHandle<ContinuousClock>] = []
  handles.reserveCapacity(count)
  let start = threadCPUSeconds()
  for index in 0..<count {
    let end = now.advanced(by: .seconds(600 + index % 1_000))
    handles.append(engine.add(Countdown(end: end), display: .seconds) { _ in tally.calls += 1 })
  }
  let added = threadCPUSeconds()
  for handle in handles { handle.extend(by: .seconds(1)) }
  let extended = threadCPUSeconds()
  for handle in handles { handle.cancel() }
  let cancelled = threadCPUSeconds()
  let perCall = { (seconds: Double) in String(format: "%.2f", seconds * 1e6 / Double(count)) }
  print(
    "µs per call, \(count) countdowns: add \(perCall(added - start)), extend \(perCall(extended - added)),",
    "cancel \(perCall(cancelled - extended))")
  engine.shutdown()
}
