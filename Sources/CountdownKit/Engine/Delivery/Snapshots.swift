/// Builds the snapshots subscribers receive from the core's changes.
@usableFromInline
package enum Snapshots {
  /// The snapshot `change` stands for, computed at `instant`.
  @inlinable
  package static func snapshot<Display: CountdownDisplay, Instant: InstantProtocol>(
    of change: Effects.Change, at instant: Instant, display: Display, valueIsTicks: Bool
  ) -> CountdownSnapshot<Display.Value, Instant> where Instant.Duration == Duration {
    let remaining = Ticks.duration(change.remaining)
    // A compact value held at the end of the tick range stands for a larger one: ask the display.
    let value =
      valueIsTicks && change.value != Ticks.max && change.value != Ticks.min
      ? (Ticks.duration(change.value) as? Display.Value) ?? display.value(remaining: remaining)
      : display.value(remaining: remaining)
    return CountdownSnapshot(
      value: value, remaining: remaining, progress: progress(remaining: change.remaining, total: change.total),
      isPaused: change.isPaused, isFinished: change.isFinished, instant: instant)
  }

  /// What `Countdown.progress(at:)` gives for these remaining and total times (total -1: none).
  @inlinable
  package static func progress(remaining: Tick, total: Tick) -> Double? {
    guard total > 0 else { return nil }
    if remaining <= 0 { return 0 }
    if remaining >= total { return 1 }
    return Ticks.duration(remaining) / Ticks.duration(total)
  }
}
