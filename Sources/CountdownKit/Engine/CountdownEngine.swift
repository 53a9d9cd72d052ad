public import Foundation

/// One driver for any number of live countdowns.
///
/// ```swift
/// let engine = CountdownEngine()
/// let handle = engine.add(Countdown(duration: .seconds(90), startingAt: engine.now), display: .seconds) { snapshot in
///   label.text = snapshot.value.formatted(.countdown(.digital))
/// }
/// handle.pause()
/// ```
///
/// The engine measures time on `C` (`ContinuousClock` by default: monotonic, and it keeps counting
/// while the machine sleeps), so a suspended process shows the right value at once when it resumes,
/// with one update per subscriber and each completion that fell in the gap fired once. Adding,
/// cancelling, pausing and retargeting are synchronous and safe from any thread or actor. Work is
/// proportional to what changes on screen, not to the number of countdowns.
///
/// ## How a change travels
///
/// 1. **Add** (`CountdownEngine+Subscriptions.swift`). `add(_:display:onChange:)` describes the
///    subscriber in inlinable code, so that everything typed is compiled for your display in your
///    module: its display's integer plan (`DisplayPlan.swift`), its main-actor table
///    (`SinkTable.swift`, `MainTable.swift`). Under the engine's one lock (`CountdownEngine+Mutation.swift`),
///    the instant becomes ticks, nanoseconds since the engine started (`CountdownEngine+Conversions.swift`,
///    the only conversion), and the core (`EngineCore.swift`) takes a row (`Rows.swift`: 24 hot bytes),
///    a binding (`Bindings.swift`: 16 bytes) and a sink slot in the display's class
///    (`DisplayClasses.swift`, one per distinct display). The closure goes to the class's main-actor
///    table: at once when `add` runs on the main actor and the slot is new (`EngineState.swift`),
///    otherwise queued for the next hop, in order with everything else the main actor is sent.
/// 2. **Schedule** (`Schedule.swift`, `Schedule+Wheel.swift`). The core queues the row at its next
///    change: an append to a slot of the timing wheel of its tolerance, or a heap push when far.
/// 3. **Wake** (`CountdownEngine+Driver.swift`). One task sleeps until the end of the earliest occupied
///    slot, wakes, and serves what is due in chunks of 1,024, letting go of the lock in between.
/// 4. **Serve** (`EngineCore+Processing.swift`). For each due row: integer arithmetic (or the display's
///    own functions, for displays without a plan) gives the value and the next change; a changed value
///    appends a 32-byte `Effects.Change` to a buffer (`Effects.swift`); the row goes back into the wheel.
///    Data only: the core never calls out and never locks.
/// 5. **Deliver** (`Mailbox.swift`, `MainSide.swift`, `Outbox.swift`). Still under the lock, the
///    buffer is appended to the mailbox; after the lock, one hop to the main actor walks it, calling
///    each subscriber's closure with a snapshot built on the spot: no allocation, no lock and no
///    reference count per change. A main actor that falls behind finds one newest change per
///    subscriber and chunk. Streams' changes go through the outbox, delivered in order off the lock.
public final class CountdownEngine<C: Clock>: Sendable where C.Duration == Duration {
  /// The engine clock's instant type.
  public typealias Instant = C.Instant
  /// What subscribers of a display with values of type `Value` receive.
  public typealias Snapshot<Value: Equatable & Sendable> = CountdownSnapshot<Value, C.Instant>

  let clock: C
  /// The instant the engine's ticks count from.
  @usableFromInline let origin: C.Instant
  let wallClock: any WallClock
  let state: Lock<EngineState<C>>
  let mailbox = Mailbox()
  let outbox = Outbox()
  let main: MainSide
  /// The main-actor table of countdowns that only report their completion (display class 0).
  let finishTable: MainTable
  let drivesItself: Bool

  /// An engine on `clock`.
  ///
  /// - Parameters:
  ///   - clock: The monotonic clock to measure time on.
  ///   - wallClock: Where wall-clock dates come from, for `Date` targets.
  ///   - tolerance: The most a change may be delivered late. Each display gets a tenth of its period
  ///     (100 ms for whole seconds), at least 1 ms and at most this; one wake-up serves every change
  ///     that falls within it. Changes are never delivered early. The default, 100 ms, keeps a seconds
  ///     display to at most 11 wake-ups a second however many countdowns there are.
  /// - Precondition: `tolerance` is positive.
  public convenience init(
    clock: C, wallClock: any WallClock = SystemWallClock(), tolerance: Duration = .milliseconds(100)
  ) {
    self.init(clock: clock, wallClock: wallClock, tolerance: tolerance, drivesItself: true)
  }

  /// An engine whose time is driven by hand with ``_serveDue()`` instead of a driver task: for tests.
  package init(clock: C, wallClock: any WallClock, tolerance: Duration, drivesItself: Bool) {
    precondition(tolerance > .zero, "CountdownEngine needs a positive tolerance, got \(tolerance)")
    self.clock = clock
    self.wallClock = wallClock
    self.drivesItself = drivesItself
    let origin = clock.now
    self.origin = origin
    finishTable = MainTable.makeFinishTable()
    main = MainSide(finishTable: finishTable)
    let timeline = Self.makeTimeline(date: wallClock.currentDate, instant: origin, offset: .zero)
    state = Lock(
      EngineState(core: EngineCore(maximumTolerance: Ticks.ceiling(tolerance)), timeline: timeline), level: .engine)
    if drivesItself {
      let reference = WeakEngine(self)
      Task.detached(priority: .high) { await Self.drive(reference) }
    }
  }

  deinit {
    let (wake, streams) = state.withLock { state in (state.driver.stop(), state.streams) }
    wake?.perform()
    // The sequences end with their engine.
    for case let stream? in streams { stream.deliver(nil, 0) }
  }

  /// The current instant of the engine's clock.
  public var now: C.Instant { clock.now }

  /// The number of countdowns the engine holds (bound or not).
  public var count: Int { state.withLock { $0.core.rows.count } }

  /// What the engine has done and holds, for benchmarks and diagnostics.
  public var statistics: EngineStatistics {
    state.withLock { state in
      EngineStatistics(
        wakeUps: state.wakeUps, countdowns: state.core.rows.count, subscribers: state.core.bindings.count)
    }
  }

  /// Stops the driver, ends every snapshot sequence and drops every countdown.
  ///
  /// Once it returns, nothing of this engine calls your code again: no snapshot, no completion, not
  /// even one that was already on its way to the main actor. Whatever is added afterwards is dropped at
  /// once: a snapshot sequence ends without an element, a handle is inactive, a board row does not stay.
  public func shutdown() {
    let wake = state.withLock { state -> DriverWake? in
      state.isShutDown = true
      mailbox.shutDown()
      _ = flush(&state, at: 0)
      return state.driver.stop()
    }
    wake?.perform()
    outbox.deliver()
  }

  // MARK: - Wall clock

  /// The timeline that converts wall-clock dates to the engine's instants.
  public var timeline: Timeline<C.Instant> { state.withLock { $0.timeline } }

  /// The engine instant at which the wall clock (corrected by the reference offset) reads `date`.
  ///
  /// - Throws: `TimelineError` for dates that are not finite or absurdly far away.
  public func instant(for date: Date) throws -> C.Instant {
    try state.withLock { try $0.timeline.instant(for: date) }
  }

  /// Tells the engine that the wall clock was changed (on Apple platforms, on
  /// `NSSystemClockDidChange`): it re-anchors its timeline and moves every countdown whose end came
  /// from a `Date`. The engine also notices jumps of more than a second by itself at its wake-ups.
  public func wallClockDidChange() {
    let date = wallClock.currentDate
    mutate { state, now in reanchor(&state, date: date, at: now) }
  }

  /// Sets the offset of a trusted reference clock (a server) against the local wall clock, e.g. from a
  /// `ServerTimeEstimator`, and moves every countdown whose end came from a `Date`.
  ///
  /// - Throws: `TimelineError.referenceOffsetOutOfRange` for an absurd offset; nothing changes.
  public func setReferenceOffset(_ offset: Duration) throws {
    try mutate { state, now -> Result<Void, TimelineError> in
      do throws(TimelineError) {
        state.timeline = try state.timeline.withReferenceOffset(offset)
        retargetDates(&state, at: now)
        return .success(())
      } catch {
        return .failure(error)
      }
    }.get()
  }

  static func makeTimeline(date: Date, instant: C.Instant, offset: Duration) -> Timeline<C.Instant> {
    if let timeline = try? Timeline(anchorDate: date, anchorInstant: instant, referenceOffset: offset) {
      return timeline
    }
    // The wall clock itself reports an absurd date: anchor at the reference date rather than trap.
    // swift-format-ignore: NeverForceUnwrap
    return try! Timeline(
      anchorDate: Date(timeIntervalSinceReferenceDate: 0), anchorInstant: instant, referenceOffset: offset)
  }
}

extension CountdownEngine where C == ContinuousClock {
  /// An engine on `ContinuousClock`: monotonic, unaffected by changes to the wall clock, and still
  /// counting while the machine sleeps.
  ///
  /// - Parameters:
  ///   - wallClock: Where wall-clock dates come from, for `Date` targets.
  ///   - tolerance: The most a change may be delivered late; see
  ///     ``init(clock:wallClock:tolerance:)``.
  public convenience init(wallClock: any WallClock = SystemWallClock(), tolerance: Duration = .milliseconds(100)) {
    self.init(clock: ContinuousClock(), wallClock: wallClock, tolerance: tolerance)
  }
}

/// A weak reference to an engine, so that the driver task does not keep a dropped engine alive.
final class WeakEngine<C: Clock>: Sendable where C.Duration == Duration {
  weak let engine: CountdownEngine<C>?

  init(_ engine: CountdownEngine<C>) {
    self.engine = engine
  }
}
