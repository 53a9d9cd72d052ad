#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch
import Synchronization

/// SIGTERM and SIGINT for `countdown expire`: the first drains the worker (no more claims; running
/// follow-ups may finish for the grace period, the rest are given back), and the command then exits
/// with status 0; a second one exits at once with 128 + the signal's number, leaving the worker's
/// leases to run out.
final class ExpireSignals {
  private let sources: [any DispatchSourceSignal]

  /// Installs the handlers (they stay until the process exits) and returns once they are registered.
  init(onFirst: @escaping @Sendable (Int32) -> Void) {
    let queue = DispatchQueue(label: "countdown.expire.signals")
    let registered = DispatchGroup()
    let received = SignalCount()
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGTERM, SIGINT] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      registered.enter()
      source.setRegistrationHandler { @Sendable in registered.leave() }
      source.setEventHandler { @Sendable in
        if received.next() == 1 {
          onFirst(signalNumber)
        } else {
          exit(128 + signalNumber)
        }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
    registered.wait()
  }
}

/// How many of the signals have arrived.
private final class SignalCount: Sendable {
  private let count = Mutex(0)

  /// Counts one more; the count.
  func next() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}
