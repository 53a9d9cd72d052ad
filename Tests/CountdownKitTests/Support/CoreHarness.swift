import CountdownKit
import CountdownTesting

/// Drives an `EngineCore` by hand with plain ticks, as the engine does under its lock, and keeps what
/// it delivered: each change and event with the tick it was produced at.
struct CoreHarness {
  var core: EngineCore
  private var effects = Effects()
  /// Every change produced, oldest first.
  private(set) var changes: [(tick: Tick, change: Effects.Change)] = []
  /// Every event produced, oldest first.
  private(set) var events: [(tick: Tick, event: Effects.Event)] = []
  /// The sink each row was added with.
  private var sinks: [Int: SinkKey] = [:]

  init(maximumTolerance: Duration = .milliseconds(100)) {
    core = EngineCore(maximumTolerance: Ticks.ceiling(maximumTolerance))
  }

  /// A display class for `display` (a new one each call).
  mutating func addClass<Display: CountdownDisplay>(_ display: Display) -> UInt32 {
    let plan = DisplayPlan.make(for: display)
    return core.addClass(plan: plan, period: display.period, generic: plan == nil ? GenericDisplay(display) : nil)
  }

  /// Adds a row ending at `end` (paused at `pausedAt` if given), bound to a main-actor sink of
  /// `displayClass` when given (class 0: completion only).
  @discardableResult
  mutating func add(
    end: Tick, pausedAt: Tick? = nil, total: Tick? = nil, displayClass: UInt32? = nil,
    releasesWhenSettled: Bool = false, at now: Tick
  ) -> Int {
    var spec = EngineCore.RowSpec(end: end, pausedAt: pausedAt, total: total)
    spec.releasesWhenSettled = releasesWhenSettled
    let binding = displayClass.map {
      Bindings.Binding(displayClass: $0, sink: core.classes.takeSink(of: $0).sink, isStream: false)
    }
    let row = core.add(spec, binding: binding, at: now, into: &effects)
    sinks[row] = binding.map { SinkKey(displayClass: $0.displayClass, sink: $0.sink) }
    collect(at: now)
    return row
  }

  mutating func change(_ row: Int, _ change: EngineCore.Change, at now: Tick) {
    core.change(row, change, at: now, into: &effects)
    collect(at: now)
  }

  mutating func remove(_ row: Int, at now: Tick) {
    core.remove(row, into: &effects)
    collect(at: now)
  }

  /// Serves everything due at `now`.
  mutating func serve(at now: Tick) {
    repeat { core.serve(at: now, into: &effects) } while core.isServing
    collect(at: now)
  }

  mutating func nextWake() -> Tick? { core.nextWake() }

  /// The sink of `row`'s binding.
  func sink(of row: Int) -> SinkKey {
    precondition(core.rows[row].flags.hasBinding, "row \(row) has no binding")
    let binding = core.bindings[core.rows[row].binding]
    return SinkKey(displayClass: binding.displayClass, sink: binding.sink)
  }

  /// The changes delivered to `sink`, oldest first.
  func changes(of sink: SinkKey) -> [(tick: Tick, change: Effects.Change)] {
    changes.filter { $0.change.sinkKey == sink }
  }

  /// The ticks at which `row` finished: its `finished` events, and the changes of its subscriber that
  /// carry its completion.
  func completions(of row: Int) -> [Tick] {
    let sink = sinks[row]
    let carried = changes.filter { $0.change.finishesSubscriber && $0.change.sinkKey == sink }.map(\.tick)
    let events = events.compactMap { tick, event -> Tick? in
      if case .finished(let finished, _, _, _) = event, finished == UInt32(row) { return tick }
      return nil
    }
    return (carried + events).sorted()
  }

  private mutating func collect(at now: Tick) {
    changes += (Array(effects.changes) + effects.streamChanges).map { (now, $0) }
    events += effects.events.map { (now, $0.event) }
    effects.removeAll()
    core.recycle()
  }
}

/// Ticks from a duration, for tests.
func ticks(_ duration: Duration) -> Tick { Ticks.ceiling(duration) }

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

  init<Value>(value: Value, isPaused: Bool, isFinished: Bool) {
    self.value = String(describing: value)
    self.isPaused = isPaused
    self.isFinished = isFinished
  }

  var description: String { "\(value)\(isPaused ? " paused" : "")\(isFinished ? " finished" : "")" }
}

extension ManualClock.Instant {
  /// The instant `duration` after the origin.
  static func at(_ duration: Duration) -> Self { Self(offset: duration) }
}

/// When the engine serves something due `offset` after its origin, for a lane with `tolerance`: at
/// the end of the slot it falls in, slots being 15/16 of the tolerance wide and counted from the
/// origin (see `Schedule`).
func servedAt(_ offset: Duration, tolerance: Duration = .milliseconds(100)) -> Duration {
  let width = tolerance * 15 / 16
  let slot = offset.attoseconds / width.attoseconds
  return Duration(attoseconds: (slot + 1) * width.attoseconds)
}
