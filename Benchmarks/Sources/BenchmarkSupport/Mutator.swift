import Foundation
import Synchronization

/// A thread that adds a countdown and cancels the one it added `ring` steps before, once a
/// millisecond, timing each call: the app's other threads, for the thundering-herd scenario.
final class Mutator: Sendable {
  private let isStopping = Atomic<Bool>(false)
  private let latencies = Mutex<[Double]>([])
  private let exited = DispatchSemaphore(value: 0)

  /// Starts mutating rows `rows..<rows + 2 * ring` of `contender`.
  init(contender: any Contender, recorder: Recorder, rows: Int, ring: Int) {
    let thread = Thread { [self] in
      var samples: [Double] = []
      samples.reserveCapacity(100_000)
      var step = 0
      let clock = ContinuousClock()
      while !isStopping.load(ordering: .relaxed) {
        let added = rows + step % (2 * ring)
        recorder.activate(added)
        let start = clock.now
        contender.add(added, isolation: nil)
        samples.append(start.duration(to: clock.now).seconds)
        if step >= ring {
          let cancelled = rows + (step - ring) % (2 * ring)
          let start = clock.now
          contender.cancel(cancelled)
          samples.append(start.duration(to: clock.now).seconds)
          recorder.deactivate(cancelled)
        }
        step += 1
        Thread.sleep(forTimeInterval: 0.001)
      }
      latencies.withLock { $0 = samples }
      exited.signal()
    }
    thread.name = "mutator"
    thread.start()
  }

  /// Stops the thread and returns the duration of every call it made, in seconds.
  func stop() async -> [Double] {
    isStopping.store(true, ordering: .relaxed)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [exited] in
        exited.wait()
        continuation.resume()
      }
    }
    return latencies.withLock { $0 }
  }
}
