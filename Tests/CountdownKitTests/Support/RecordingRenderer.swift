import CountdownKit
import CountdownTesting

/// What a subscriber would see, reduced to something every display's values can be compared by.
struct Seen: Equatable, CustomStringConvertible {
  var value: String
  var isPaused: Bool
  var isFinished: Bool

  init<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ countdown: Countdown<Instant>, at now: Instant, display: Display
  ) where Instant.Duration == Duration {
    let snapshot = countdown.snapshot(at: now, display: display)
    value = String(describing: snapshot.value)
    isPaused = snapshot.isPaused
    isFinished = snapshot.isFinished
  }

  var description: String { "\(value)\(isPaused ? " paused" : "")\(isFinished ? " finished" : "")" }
}

/// A renderer for driving a `Scheduler` directly: the engine's own renderer decides what to deliver,
/// and every delivery it makes is logged with the instant it was made at.
final class RecordingRenderer<Display: CountdownDisplay>: Sendable {
  typealias Instant = EngineTick

  let display: Display
  private let inner: Renderer
  private let deliveries = Lock<[(instant: Instant, seen: Seen)]>([])
  private let closed = Lock(0)

  init(display: Display) {
    self.display = display
    inner = .rendering(display, origin: EngineTick(offset: .zero), onChange: { _ in })
  }

  /// The renderer to hand to the scheduler.
  var renderer: Renderer {
    Renderer(identity: ObjectIdentifier(self)) { [self] call in
      switch call {
      case .render(let countdown, let now, let force):
        let (delivery, nextChange) = inner.render(countdown, at: now, force: force)
        if delivery != nil {
          deliveries.withLock { $0.append((now, Seen(countdown, at: now, display: display))) }
        }
        return (delivery, nextChange)
      case .close:
        closed.withLock { $0 += 1 }
        return (inner.close(), nil)
      }
    }
  }

  /// Every delivery so far, oldest first.
  var log: [(instant: Instant, seen: Seen)] { deliveries.withLock { $0 } }

  /// How many times the renderer was closed.
  var closeCount: Int { closed.withLock { $0 } }
}

/// Collects the completions a scheduler hands out, by key, when the test performs its deliveries.
final class CompletionLog: Sendable {
  private let pending = Lock<[Int]>([])

  /// A delivery that logs a completion of `key` when performed.
  func delivery(_ key: Int) -> Delivery {
    .immediate { self.pending.withLock { $0.append(key) } }
  }

  /// The keys logged since the last call, in order.
  func take() -> [Int] {
    pending.withLock { keys in
      defer { keys = [] }
      return keys
    }
  }
}

/// Performs the deliveries a scheduler returned that can run off the main actor.
func perform(_ deliveries: [Delivery]) {
  for delivery in deliveries {
    switch delivery {
    case .immediate(let work), .afterUnlock(let work): work()
    case .mainActor: break
    }
  }
}

extension ManualClock.Instant {
  /// The instant `duration` after the origin.
  static func at(_ duration: Duration) -> Self { Self(offset: duration) }
}

extension EngineTick {
  /// The tick `duration` after the origin.
  static func at(_ duration: Duration) -> Self { Self(offset: duration) }
}

/// When the engine serves something due `offset` after its origin, for a class with `tolerance`: at
/// the end of the slot it falls in, slots being 15/16 of the tolerance wide and counted from the
/// origin (see `Scheduler.slotWidth(forTolerance:)`).
func servedAt(_ offset: Duration, tolerance: Duration = .milliseconds(100)) -> Duration {
  let width = tolerance * 15 / 16
  let slot = offset.attoseconds / width.attoseconds
  return Duration(attoseconds: (slot + 1) * width.attoseconds)
}
