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
      guard let change else { return continuation.finishUnlocked() }
      continuation.yieldUnlocked(
        Snapshots.snapshot(
          of: change, at: origin.advanced(by: Ticks.duration(tick)), display: display, valueIsTicks: valueIsTicks))
    }
  }
}
