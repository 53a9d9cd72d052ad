public import Foundation

// How a change travels, from `add` to the app's closure (for contributors). Each file is named from
// Sources/CountdownKit, followed by a colon and what it declares that the step uses; EngineMapTests
// fails when a file named here is gone or does not declare a symbol named after it.
//
// 1. Add: Engine/API/CountdownEngine+Subscribing.swift: `add(_:display:delivery:onChange:onFinish:isolation:)`,
//    inlined where the display is named. Under the engine's one lock
//    (Engine/Driver/CountdownEngine+Mutation.swift: `mutate(_:)`) it finds or makes the display's class
//    and its typed table, and installs the subscriber
//    (Engine/Driver/EngineState.swift: `displayClass(for:plan:origin:)`, `install(_:in:delivery:isOnMainActor:)`).
//    A subscriber holds its table typed (Engine/Delivery/MainSubscriber.swift: `MainSubscriber`,
//    `SnapshotSubscriber`, `FinishSubscriber`, `MovingSubscriber`); `install` takes a sink slot, makes
//    the binding (Engine/Core/Bindings.swift: `Bindings.Binding`,
//    `init(displayClass:sink:isStream:deliversEveryChange:)`), and puts the closures in the table at
//    once when it runs on the main actor into a slot the class never had, otherwise through an install
//    event. Every main-actor subscriber comes in there: closures, completions, slots, models,
//    publishers, a board's slots, `setDisplay(of:to:)`; streams through `install(_:in:)`.
// 2. Row: Engine/Core/EngineCore.swift: `add(_:binding:at:into:)` takes a row
//    (Engine/Core/Rows.swift: `Rows`, `Rows.Head`, 24 hot bytes) and its binding (16 bytes), in ticks
//    (nanoseconds since the engine started; this file converts), and renders it
//    (Engine/Core/EngineCore+Processing.swift: `process(_:at:_:into:)`): the display's integer plan
//    (Engine/Core/DisplayPlan.swift: `DisplayPlan`, `evaluate(remaining:paused:)`) gives the value and
//    the next change; whole units follow one rule (Engine/Core/RoundedRule.swift: `RoundedRule`).
// 3. Schedule: Engine/Schedule/Schedule.swift: `insert(_:lane:limit:)` queues the row at its next change: an
//    append to a slot of the timing wheel of its tolerance (Engine/Schedule/Schedule+Wheel.swift:
//    `Wheel`), or a heap push when far.
// 4. Wake: Engine/Driver/CountdownEngine+Driver.swift: `drive(_:)`, `driverStep()`. One driver task per
//    engine serves what is due in chunks, letting go of the lock in between, and waits: in a sleeper
//    task of its own for each sleep (cancelled by a mutation that needs it earlier), or parked with
//    nothing scheduled. Its state is the engine's lifecycle (Engine/Driver/EngineLifecycle.swift:
//    `EngineLifecycle`, `scheduled(nextWake:)`, `driverStepped(isServing:deadline:sleeper:)`,
//    `shutDown(hasDriver:)`), whose transitions return what to do once the lock is let go.
// 5. Serve: Engine/Core/EngineCore+Serving.swift: `serve(at:limit:into:)`. The common change (whole
//    units counting down) is served for a batch in one pass (`CountingDown`, with `RoundedRule`'s
//    `step(remaining:)`); each change is 32 bytes appended to a buffer (Engine/Core/Effects.swift:
//    `Effects`, `Effects.Change`). Data only: the core never calls out (but to displays without a plan)
//    and never locks.
// 6. Post: Engine/Driver/CountdownEngine+Mutation.swift: `flush(_:at:continuesServe:)` hands the buffer
//    and the events to the mailbox (Engine/Delivery/Mailbox.swift: `Mailbox`, `post(_:)`) under the
//    lock, in chunks of mapped memory (Engine/Delivery/MappedArray.swift: `MappedArray`); streams'
//    changes and boards' sequences go to the outbox (Engine/Delivery/Outbox.swift: `Outbox`,
//    `deliver()`), which runs them once no lock is held.
// 7. Deliver: Engine/Delivery/MainSide.swift: `drain(_:)`. One hop to the main actor takes what the
//    mailbox holds (only each subscriber's newest change, Engine/Delivery/Coalescer.swift:
//    `coalesce(_:)`, when it holds several wake-ups'), and hands each run of one display class to its
//    table (Engine/Delivery/SubscriberTable.swift: `SubscriberTable`, `SnapshotTable`, erasing the
//    display's type); Engine/Delivery/SinkTable.swift: `SinkTable`, `deliverHere(_:at:skipping:while:)`
//    builds each snapshot and calls the subscriber's closure.
//
// A board (Board/CountdownBoard.swift: `CountdownBoard`) keeps its rows in the engine's state
// (Board/BoardState.swift: `BoardState`; Board/BoardRows.swift: `BoardRows`), changed by
// Board/CountdownBoard+Following.swift: `apply(_:asOf:)`, `follow(_:isolation:)`. Its rows take one
// of two routes:
//
// - Per-countdown closures: a row that slots show (Board/CountdownBoard+Slots.swift:
//   `bind(_:token:progressSteps:render:)`, `bindSlots(of:total:in:_:)`) has one binding, made by
//   `install(_:in:delivery:isOnMainActor:)` (step 1), whose subscriber hands each change to every slot
//   showing the row (Board/RowSlots.swift: `RowSlots`; Board/SlotEntry.swift: `SlotEntry`). Steps 2 to
//   7 as above; a finished row's ID goes to the board's sequences and handlers
//   (Board/BoardRows.swift: `finished(row:)`; Board/FinishEvents.swift: `FinishEvents`).
// - Every row (`values: .everyRow`): the core keeps every row's value in columns
//   (Engine/Core/LiveColumns.swift: `LiveColumns`, `group(of:)`, `value(ofUnit:period:)`); a running
//   countdown of whole units joins a phase group served once per unit
//   (Engine/Core/EngineCore+Live.swift: `renderLive(_:_:remaining:at:force:)`,
//   `serveLiveGroups(at:into:)`, `takeLiveBatches()`). `flush` hands each board its changed rows under
//   the engine's lock (Board/BoardRows.swift: `liveChanges(_:)`; Board/LiveBatches.swift: `LiveBatches`,
//   `post(_:)`), which keeps the newest change of each row (`newest(_:)`) for its main-actor handlers
//   (`deliver()`, through the mailbox) and for each of its sequences (woken through the outbox)
//   (Board/CountdownBoard+Changes.swift: `onChanges(_:)`, `changes()`).
//
// Locks: the DocC article Locks lists them and every nesting (Lock.swift: `Lock`, `LockLevel`,
// `LockOrder`, `resumeUnlocked()`, `yieldUnlocked(_:)`, `finishUnlocked()`).

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
/// proportional to what changes on screen, not to the number of countdowns. Main-actor subscribers are
/// called in batches, one hop to the main actor per wake-up; one that falls behind gets each
/// subscriber's newest snapshot once, never a backlog.
///
/// ## Lifetime
///
/// An engine keeps itself alive while it has something scheduled (a change to show, a completion to
/// fire), as a run loop keeps its timers: an engine made in a function that returns, with its handles
/// dropped, still shows its countdowns and fires their completions. Once nothing is scheduled (every
/// countdown over, paused, or waiting for its next date), it is held only by what the app holds: its
/// handles, boards, slots, models, publishers, and sequences that follow a source of dates. When the
/// last of those goes, so does the engine. A countdown that never settles (an overtime or elapsed
/// display) keeps its engine until it is cancelled, as a repeating timer would. ``shutdown()`` is the
/// explicit stop.
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
  let finishTable = FinishTable()
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
    let (wake, streams) = state.withLock { state in
      (state.lifecycle.shutDown(hasDriver: drivesItself).wake, state.streams)
    }
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
    let (wake, dropped) = state.withLock { state -> (EngineLifecycle<C>.Wake?, [Mailbox.Chunk]) in
      let (shutsDown, wake) = state.lifecycle.shutDown(hasDriver: drivesItself)
      guard shutsDown else { return (nil, []) }
      let dropped = mailbox.dropAll()
      _ = flush(&state, at: 0)
      holdWhileScheduled(&state, isScheduled: false)
      return (wake, dropped)
    }
    // Let go of with no lock held (see `Mailbox.dropAll()`).
    _ = consume dropped
    wake?.perform()
    outbox.deliver()
  }

  // MARK: - Wall clock

  /// The timeline that converts wall-clock dates to the engine's instants.
  public var timeline: WallClockTimeline<C.Instant> { state.withLock { $0.timeline } }

  /// The engine instant at which the wall clock (corrected by the reference offset) reads `date`.
  ///
  /// - Throws: `WallClockTimelineError` for dates that are not finite or absurdly far away.
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
  /// - Throws: `WallClockTimelineError.referenceOffsetOutOfRange` for an absurd offset; nothing changes.
  public func setReferenceOffset(_ offset: Duration) throws {
    try mutate { state, now -> Result<Void, WallClockTimelineError> in
      do throws(WallClockTimelineError) {
        state.timeline = try state.timeline.withReferenceOffset(offset)
        retargetDates(&state, at: now)
        return .success(())
      } catch {
        return .failure(error)
      }
    }.get()
  }

  static func makeTimeline(date: Date, instant: C.Instant, offset: Duration) -> WallClockTimeline<C.Instant> {
    if let timeline = try? WallClockTimeline(anchorDate: date, anchorInstant: instant, referenceOffset: offset) {
      return timeline
    }
    // The wall clock itself reports an absurd date: anchor at the reference date rather than trap.
    // swift-format-ignore: NeverForceUnwrap
    return try! WallClockTimeline(
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

// The engine's edge: the one place where the clock's instants and `Countdown` values become ticks and
// rows, and ticks become instants again.

extension CountdownEngine {
  /// `instant` as a tick: rounded down, for the current time (the engine never believes it is later
  /// than it is).
  @inlinable
  func tick(now instant: C.Instant) -> Tick {
    Ticks.floor(origin.duration(to: instant))
  }

  /// `instant` as a tick: rounded up, for an end (a countdown never shows less time than it has).
  @inlinable
  func tick(end instant: C.Instant) -> Tick {
    Ticks.ceiling(origin.duration(to: instant))
  }

  /// `tick` as an instant of the clock.
  @usableFromInline
  func instant(_ tick: Tick) -> C.Instant {
    origin.advanced(by: Ticks.duration(tick))
  }

  /// What a row starts as for `countdown`.
  @inlinable
  func spec(for countdown: Countdown<C.Instant>, target: Date? = nil) -> EngineCore.RowSpec {
    let total = countdown.total.map(Ticks.ceiling)
    switch countdown.state {
    case .running(let end):
      return EngineCore.RowSpec(end: tick(end: end), total: total, target: target?.timeIntervalSinceReferenceDate)
    case .paused(let remaining, let since):
      let pausedAt = tick(now: since)
      return EngineCore.RowSpec(
        end: Ticks.sum(pausedAt, Ticks.ceiling(remaining)), pausedAt: pausedAt, total: total)
    }
  }

  /// The countdown row `row` holds, in the clock's instants.
  func countdown(of row: Int, in core: EngineCore) -> Countdown<C.Instant> {
    let head = core.rows[row]
    let total = core.rows.totals[row]
    var countdown = Countdown(end: instant(head.end), total: total < 0 ? nil : Ticks.duration(total))
    if head.flags.isPaused {
      let pausedAt = core.rows.pausedAt[row]
      countdown = Countdown(end: instant(head.end), total: countdown.total).paused(at: instant(pausedAt))
    }
    return countdown
  }
}
