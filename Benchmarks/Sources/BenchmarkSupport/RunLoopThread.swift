import Foundation
import Synchronization

/// A thread that runs a `RunLoop`, as an app's main thread does, for the strategies built on
/// Foundation timers.
///
/// The run loop itself is not `Sendable`; it lives behind a mutex and is only used to add timers,
/// which CFRunLoop supports from any thread (adding an earlier timer re-arms the loop's wake-up).
final class RunLoopThread: Sendable {
  private let runLoop = Mutex<RunLoop?>(nil)
  private let isStopping = Atomic<Bool>(false)
  private let exited = DispatchSemaphore(value: 0)

  init(name: String) {
    let ready = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      runLoop.withLock { runLoop in
        let current = RunLoop.current
        // A run loop with nothing to do returns at once: keep a far timer in it.
        current.add(Timer(timeInterval: 1_000_000, repeats: true) { _ in }, forMode: .default)
        runLoop = current
      }
      ready.signal()
      while !isStopping.load(ordering: .relaxed) {
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25))
      }
      exited.signal()
      // Abandon the run loop instead of tearing it down: CFRunLoop removes each timer with a linear
      // search of a sorted array, so releasing 100,000 timers takes minutes. The thread sleeps for
      // good; its timers never fire again and their memory stays until the process exits.
      while true { Thread.sleep(forTimeInterval: 3_600) }
    }
    thread.name = name
    thread.start()
    ready.wait()
  }

  /// Runs `body` with the run loop, under the lock.
  func withRunLoop(_ body: (RunLoop) -> Void) {
    runLoop.withLock { runLoop in
      guard let runLoop else { preconditionFailure("Internal inconsistency: the run loop is gone") }
      body(runLoop)
    }
  }

  /// Stops running the run loop after its current pass (within a quarter of a second).
  func stop() async {
    isStopping.store(true, ordering: .relaxed)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [exited] in
        exited.wait()
        continuation.resume()
      }
    }
  }
}
