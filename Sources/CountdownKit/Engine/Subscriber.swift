/// A main-actor subscriber: its closures, in a box made where it is added and kept in its display
/// class's table on the main actor, in the slot the engine gave it.
///
/// The table calls ``receive(_:)`` on the box it holds: the closure is called borrowed from the box
/// (a `let` of an object the table keeps alive), so a delivery retains and releases nothing.
@usableFromInline
final class MainSubscriber<Value: Equatable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline let onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?
  @usableFromInline let onFinish: (@MainActor @Sendable () -> Void)?

  @inlinable
  init(
    onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    self.onChange = onChange
    self.onFinish = onFinish
  }

  /// Hands the subscriber a snapshot.
  @MainActor @inlinable
  func receive(_ snapshot: CountdownSnapshot<Value, Instant>) {
    onChange?(snapshot)
  }

  /// Tells the subscriber its countdown finished.
  @MainActor @inlinable
  func finish() {
    onFinish?()
  }
}

/// Where a new subscriber's snapshots go: what ``EngineState/install(_:in:table:)`` takes.
@usableFromInline
enum SubscriberSink: Sendable {
  /// To the main actor: the subscriber's box (a ``MainSubscriber`` of its display's value type, or a
  /// ``FinishTable/Subscriber`` for countdowns that show nothing).
  case main(any AnyObject & Sendable)
  /// To a stream, off the main actor.
  case stream(StreamSink)
}

/// Where a stream's changes go: a closure that yields each snapshot (or, given `nil`, finishes the
/// stream), made in inlinable code for the display and the clock.
@usableFromInline
struct StreamSink: Sendable {
  @usableFromInline let deliver: @Sendable (Effects.Change?, Tick) -> Void

  @inlinable
  init<Display: CountdownDisplay, Instant: InstantProtocol>(
    display: Display, origin: Instant,
    continuation: AsyncStream<CountdownSnapshot<Display.Value, Instant>>.Continuation
  ) where Instant.Duration == Duration {
    let valueIsTicks = DisplayPlan.valueIsTicks(DisplayPlan.make(for: display), for: Display.Value.self)
    deliver = { change, tick in
      guard let change else { return continuation.finish() }
      continuation.yield(
        Snapshots.snapshot(
          of: change, at: origin.advanced(by: Ticks.duration(tick)), display: display, valueIsTicks: valueIsTicks))
    }
  }
}
