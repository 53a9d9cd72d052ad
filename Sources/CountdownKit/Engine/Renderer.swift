import Synchronization

/// Work the engine hands out after it has let go of its lock.
package enum Delivery: Sendable {
  /// Runs on the main actor; all of one wake-up's main-actor work goes in one hop.
  case mainActor(@MainActor @Sendable () -> Void)
  /// Runs at once, still under the engine's lock so that a stream sees its values in order: must not
  /// call back into the engine (yielding to an `AsyncStream` is fine).
  case immediate(@Sendable () -> Void)
  /// Runs once the engine's lock is released (finishing a stream, whose termination handler may call
  /// back into the engine).
  case afterUnlock(@Sendable () -> Void)
}

/// Turns a countdown into snapshots for one subscriber; holds the last value it delivered.
///
/// Renderers are used under the engine's lock.
package protocol Renderer<Instant>: AnyObject, Sendable {
  /// The instant type of the engine's clock.
  associatedtype Instant: InstantProtocol where Instant.Duration == Duration

  /// Renders `countdown` at `now`.
  ///
  /// - Returns: the delivery to make when what a subscriber would see changed (or `force` is set),
  ///   and the display's next change after the current remaining time.
  func render(_ countdown: Countdown<Instant>, at now: Instant, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  )

  /// Called once when the renderer is detached or its countdown removed.
  func close() -> Delivery?
}

/// A renderer for one display and one sink.
package final class DisplayRenderer<Display: CountdownDisplay, Instant: InstantProtocol>: Renderer, Sendable
where Instant.Duration == Duration {
  package typealias Snapshot = CountdownSnapshot<Display.Value, Instant>

  /// Where snapshots go.
  package enum Sink: Sendable {
    /// Main-actor callback.
    case mainActor(@MainActor @Sendable (Snapshot) -> Void)
    /// An async stream; finished when the renderer closes.
    case stream(AsyncStream<Snapshot>.Continuation)
  }

  private struct Seen: Equatable, Sendable {
    var value: Display.Value
    var isPaused: Bool
    var isFinished: Bool
  }

  let display: Display
  let sink: Sink
  /// Only ever touched under the engine's lock; the mutex (uncontended) makes that checkable.
  private let last: Lock<Seen?>
  /// Cleared by `close()`: a main-actor delivery still queued when its countdown was cancelled (or its
  /// subscription ended) checks it and is dropped, so nothing renders after `cancel()` has returned.
  private let isOpen = Atomic<Bool>(true)

  package init(display: Display, sink: Sink, lastDelivered: Snapshot? = nil) {
    self.display = display
    self.sink = sink
    self.last = Lock(lastDelivered.map { Seen(value: $0.value, isPaused: $0.isPaused, isFinished: $0.isFinished) })
  }

  package func render(_ countdown: Countdown<Instant>, at now: Instant, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  ) {
    let snapshot = countdown.snapshot(at: now, display: display)
    let seen = Seen(value: snapshot.value, isPaused: snapshot.isPaused, isFinished: snapshot.isFinished)
    let next = countdown.isPaused ? nil : display.nextChange(after: snapshot.remaining)
    let changed = last.withLock { last in
      defer { last = seen }
      return last != seen
    }
    guard force || changed else { return (nil, next) }
    switch sink {
    case .mainActor(let callback):
      return (
        .mainActor { [self] in
          guard isOpen.load(ordering: .acquiring) else { return }
          callback(snapshot)
        }, next
      )
    case .stream(let continuation):
      return (.immediate { continuation.yield(snapshot) }, next)
    }
  }

  package func close() -> Delivery? {
    isOpen.store(false, ordering: .releasing)
    guard case .stream(let continuation) = sink else { return nil }
    return .afterUnlock { continuation.finish() }
  }
}
