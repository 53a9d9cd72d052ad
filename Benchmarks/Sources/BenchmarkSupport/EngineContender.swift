import CountdownCore
import CountdownKit
import Synchronization

/// CountdownKit's engine, used as an app would: `engine.add(_:display:onChange:)` for bound
/// countdowns, a board of rows with slots for lists.
final class EngineContender<Display: CountdownDisplay>: Contender where Display.Value == Duration {
  public let name = "CountdownKit engine"

  /// The engine under test.
  let engine: CountdownEngine<ContinuousClock>
  private let workload: Workload
  private let recorder: Recorder
  private let display: Display
  private let handles: Mutex<[CountdownHandle<ContinuousClock>?]>
  private let board: CountdownBoard<Int, Display, ContinuousClock>
  private let clock: DeliveryClock
  @MainActor private var slots: [CountdownSlot<Int, Display, ContinuousClock>] = []

  /// A contender for `workload`'s rows, shown with `display`, with `slotCount` cells.
  @MainActor
  init(workload: Workload, recorder: Recorder, display: Display, slotCount: Int) {
    engine = CountdownEngine(clock: ContinuousClock())
    self.workload = workload
    self.recorder = recorder
    self.display = display
    clock = DeliveryClock(anchor: workload.anchorInstant)
    handles = Mutex(Array(repeating: nil, count: workload.count))
    board = engine.board(of: Int.self, display: display)
    slots = (0..<slotCount).map { _ in board.slot() }
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    // An app names its display's type, so the engine's inlinable `add` is specialised for it; this
    // class is generic, so it names the built-in displays the scenarios use.
    let handle =
      if let display = display as? RoundedDisplay {
        add(row, display: display, isolation: isolation)
      } else if let display = display as? AdaptiveDisplay {
        add(row, display: display, isolation: isolation)
      } else {
        add(row, display: display, isolation: isolation)
      }
    let previous = handles.withLock { handles in
      defer { handles[row] = handle }
      return handles[row]
    }
    previous?.cancel()
  }

  @inline(__always)
  private func add<Shown: CountdownDisplay>(
    _ row: Int, display: Shown, isolation: isolated (any Actor)?
  ) -> CountdownHandle<ContinuousClock>
  where Shown.Value == Duration {
    engine.add(
      Countdown(end: workload.endInstant(row)), display: display,
      onChange: recording(row, to: recorder, clock: clock))
  }

  public func cancel(_ row: Int) {
    handles.withLock { handles in
      defer { handles[row] = nil }
      return handles[row]
    }?.cancel()
  }

  public func register(_ rows: Range<Int>) -> Double? {
    // As an app loads a page (or a million rows) from its database: one batch, its durations counted
    // from the instant they were measured at.
    let now = engine.now
    let batch = BoardChange<Int>.upserted(
      rows.map { BoardRow(id: $0, deadline: .after(now.duration(to: workload.endInstant($0)))) })
    let start = ContinuousClock.now
    // An app's board has a concrete type, so the inlinable `apply` is specialised for it; this class
    // is generic, so it names the boards of the built-in displays the scenarios use.
    if let board = board as? CountdownBoard<Int, RoundedDisplay, ContinuousClock> {
      board.apply(batch, asOf: now)
    } else if let board = board as? CountdownBoard<Int, AdaptiveDisplay, ContinuousClock> {
      board.apply(batch, asOf: now)
    } else {
      board.apply(batch, asOf: now)
    }
    return (ContinuousClock.now - start) / .seconds(1)
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    slots[slot].bind(to: row, render: recording(row, to: recorder, clock: clock))
  }

  public var wakeUps: Int { engine.statistics.wakeUps }

  public func stop() async {
    await MainActor.run {
      for slot in slots { slot.unbind() }
      slots = []
    }
    engine.shutdown()
    // Let the main-actor work already queued run, so that nothing of this engine is left.
    await MainActor.run {}
  }
}

/// The closure that records row `row`'s snapshots, made outside the generic contender: an app's closure
/// has concrete types. Made inside a generic method, it was a generic closure whose context the engine's
/// read-ahead could not find, and every delivery paid a cache miss in it that an app does not pay.
private func recording(
  _ row: Int, to recorder: Recorder, clock: DeliveryClock
) -> @MainActor @Sendable (CountdownSnapshot<Duration, ContinuousClock.Instant>) -> Void {
  { snapshot in
    recorder.record(row: row, value: snapshot.value.components.seconds, at: clock.seconds(for: snapshot.instant))
  }
}

/// The time of a delivery in seconds after the workload's anchor, for callbacks on the main actor.
///
/// Every snapshot of one wake-up carries the same `instant`; the clock is read at the first delivery
/// of each wake-up and again every 64 deliveries, so measuring costs little and the lateness it reports
/// is at most 64 callbacks short (microseconds).
///
/// The last instant is kept as a plain value (with `uses` at 64 before the first call), not an optional:
/// comparing optional instants went through generic value-witness calls that cost more than a
/// delivery's own work.
@MainActor
final class DeliveryClock {
  private var lastInstant: ContinuousClock.Instant
  private var lastSeconds = 0.0
  private var uses = 64
  nonisolated let anchor: ContinuousClock.Instant

  nonisolated init(anchor: ContinuousClock.Instant) {
    self.anchor = anchor
    lastInstant = anchor
  }

  func seconds(for instant: ContinuousClock.Instant) -> Double {
    uses += 1
    if uses >= 64 || instant != lastInstant {
      lastInstant = instant
      uses = 0
      lastSeconds = anchor.duration(to: .now).seconds
    }
    return lastSeconds
  }
}
