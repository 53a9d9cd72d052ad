/// The main-actor side of one display class: the display, and the closures of its subscribers by sink
/// slot. Only the main actor reads or writes it (installs and removals reach it through the mailbox, in
/// order with the changes), so a delivery takes no lock and touches no object but the subscriber's.
@MainActor
@usableFromInline
final class SinkTable<Display: CountdownDisplay, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>

  @usableFromInline nonisolated let display: Display
  @usableFromInline nonisolated let origin: Instant
  /// Whether a change's compact value is the shown `Duration` in ticks (rounded and adaptive plans).
  @usableFromInline nonisolated let valueIsTicks: Bool
  @usableFromInline var onChange: [(@MainActor @Sendable (Snapshot) -> Void)?] = []
  @usableFromInline var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
  }

  @inlinable
  func install(
    _ sink: UInt32, onChange: (@MainActor @Sendable (Snapshot) -> Void)?, onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    let index = Int(sink)
    if index >= self.onChange.count {
      self.onChange.append(contentsOf: repeatElement(nil, count: index + 1 - self.onChange.count))
    }
    self.onChange[index] = onChange
    if let onFinish { self.onFinish[sink] = onFinish }
  }

  @inlinable
  func remove(_ sink: UInt32) {
    if Int(sink) < onChange.count { onChange[Int(sink)] = nil }
    onFinish[sink] = nil
  }

  @inlinable
  func deliver(_ change: Effects.Change, at tick: Tick) {
    guard Int(change.sink) < onChange.count, let onChange = onChange[Int(change.sink)] else { return }
    onChange(Snapshots.snapshot(of: change, at: tick, display: display, origin: origin, valueIsTicks: valueIsTicks))
  }

  @inlinable
  func finish(_ sink: UInt32) {
    onFinish[sink]?()
  }
}

/// The main-actor side of display class 0: countdowns that show nothing and only report completion.
@MainActor
final class FinishTable: Sendable {
  var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]

  nonisolated init() {}
}

/// Builds the snapshots subscribers receive from the core's changes.
@usableFromInline
package enum Snapshots {
  /// The snapshot `change` stands for, `tick` being the instant it was computed for.
  @inlinable
  package static func snapshot<Display: CountdownDisplay, Instant: InstantProtocol>(
    of change: Effects.Change, at tick: Tick, display: Display, origin: Instant, valueIsTicks: Bool
  ) -> CountdownSnapshot<Display.Value, Instant> where Instant.Duration == Duration {
    let remaining = Ticks.duration(change.remaining)
    // A compact value held at the end of the tick range stands for a larger one: ask the display.
    let value =
      valueIsTicks && change.value != Ticks.max && change.value != Ticks.min
      ? (Ticks.duration(change.value) as? Display.Value) ?? display.value(remaining: remaining)
      : display.value(remaining: remaining)
    return CountdownSnapshot(
      value: value, remaining: remaining, progress: progress(remaining: change.remaining, total: change.total),
      isPaused: change.isPaused, isFinished: change.isFinished, instant: origin.advanced(by: Ticks.duration(tick)))
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
