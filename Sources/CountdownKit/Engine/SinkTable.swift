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
  /// Where each subscriber's closure keeps what it captured, as the app made it (see
  /// ``Prefetch/contextAddress(of:)``): read ahead of a delivery, never written.
  @usableFromInline var hints: [UInt] = []
  @usableFromInline var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
  }

  @inlinable
  func install(
    _ sink: UInt32, onChange: (@MainActor @Sendable (Snapshot) -> Void)?, onFinish: (@MainActor @Sendable () -> Void)?,
    hint: UInt
  ) {
    let index = Int(sink)
    if index >= self.onChange.count {
      self.onChange.append(contentsOf: repeatElement(nil, count: index + 1 - self.onChange.count))
      hints.append(contentsOf: repeatElement(0, count: index + 1 - hints.count))
    }
    self.onChange[index] = onChange
    hints[index] = hint
    if let onFinish { self.onFinish[sink] = onFinish }
  }

  @inlinable
  func remove(_ sink: UInt32) {
    if Int(sink) < onChange.count {
      onChange[Int(sink)] = nil
      hints[Int(sink)] = 0
    }
    onFinish[sink] = nil
  }

  /// Delivers `changes` (all of this class), skipping those `isLive` rejects (checked just before each
  /// call). Returns what the prefetch pass read.
  @inlinable
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, where isLive: (Effects.Change) -> Bool
  ) -> UInt {
    // Local copies: no exclusivity check per access. Nothing installs or removes a subscriber during a
    // delivery (that only happens between deliveries, see `MainSide`), so no copy is ever made.
    let sinks = onChange
    let hints = hints
    let prefetched = sinks.withUnsafeBytes { sinks in
      hints.withUnsafeBufferPointer {
        Prefetch.closures(
          sinks, stride: MemoryLayout<(@MainActor @Sendable (Snapshot) -> Void)?>.stride, hints: $0, for: changes)
      }
    }
    for change in changes {
      guard Int(change.sink) < sinks.count, let onChange = sinks[Int(change.sink)], isLive(change) else { continue }
      onChange(Snapshots.snapshot(of: change, at: tick, display: display, origin: origin, valueIsTicks: valueIsTicks))
    }
    return prefetched
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
