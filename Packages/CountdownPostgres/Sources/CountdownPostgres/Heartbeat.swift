import Synchronization

/// Tells a live connection from a dead one by how long the server has been silent.
///
/// TCP notices a peer that closed or reset the connection at once, but not one that stopped answering
/// without closing it (a paused VM, a dropped route, a hung backend): the operating system's keepalive
/// gives up after hours. So the connection's owner sends the server a small query every half
/// ``interval`` and reports everything it hears (an answer, a notification, rows) with ``heard()``;
/// ``silence()`` returns once the server has said nothing for a whole ``interval``: a server that stops
/// answering is noticed between half an interval and one interval after its last word.
///
/// Time the owner spends in its own consumer (``busy(_:)``) does not count as silence: the server may
/// be waiting for the client to read.
final class Heartbeat: Sendable {
  /// The longest silence a live connection may keep.
  let interval: Duration
  private struct State {
    var lastHeard: ContinuousClock.Instant
    var busy = 0
  }
  private let state: Mutex<State>

  init(interval: Duration) {
    self.interval = interval
    state = Mutex(State(lastHeard: .now))
  }

  /// The server said something.
  func heard() {
    let now = ContinuousClock.now
    state.withLock { $0.lastHeard = now }
  }

  /// Runs `body` (the owner's own work), not counting its time as silence.
  func busy<T>(_ body: () async throws -> T) async rethrows -> T {
    state.withLock { $0.busy += 1 }
    defer {
      let now = ContinuousClock.now
      state.withLock { state in
        state.busy -= 1
        state.lastHeard = now
      }
    }
    return try await body()
  }

  /// Waits until the server has been silent for ``interval`` (outside ``busy(_:)``); returns how long.
  ///
  /// - Throws: `CancellationError` when the task is cancelled.
  func silence() async throws -> Duration {
    while true {
      let (lastHeard, isBusy) = state.withLock { ($0.lastHeard, $0.busy > 0) }
      let now = ContinuousClock.now
      if !isBusy, now - lastHeard >= interval { return now - lastHeard }
      try await Task.sleep(until: isBusy ? now + interval : lastHeard + interval, tolerance: nil)
    }
  }
}
