public import Foundation

/// One driver for any number of live countdowns.
///
/// A single task sleeps until the end of the earliest time slot (15/16 of the tolerance wide) in which
/// something visible changes, serves everything due, in chunks, earliest first, delivers, and sleeps
/// again; with nothing scheduled it sleeps until told otherwise. Adding, cancelling, pausing and
/// retargeting are synchronous and safe from any thread or actor. Work is proportional to what changes
/// on screen, not to the number of countdowns.
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
/// with one update per subscriber and each completion that fell in the gap fired once.
public final class CountdownEngine<C: Clock>: Sendable where C.Duration == Duration {
  /// The engine clock's instant type.
  public typealias Instant = C.Instant
  /// What subscribers of a display with values of type `Value` receive.
  public typealias Snapshot<Value: Equatable & Sendable> = CountdownSnapshot<Value, C.Instant>

  let clock: C
  /// The instant the engine's ticks count from (see ``EngineTick``).
  @usableFromInline let origin: C.Instant
  let wallClock: any WallClock
  let state: Lock<EngineState<C>>
  /// Main-actor work waiting for its hop, in the order it was posted (see `post(_:)`).
  private let mailbox = Lock(Mailbox())
  private let drivesItself: Bool

  /// An engine on `clock`.
  ///
  /// - Parameters:
  ///   - clock: The monotonic clock to measure time on.
  ///   - wallClock: Where wall-clock dates come from, for `Date` targets.
  ///   - tolerance: The most a change may be delivered late. Each display gets a tenth of its period
  ///     (100 ms for whole seconds), at least 1 ms and at most this; one wake-up serves every change
  ///     that falls within it. Changes are never delivered early. The default, 100 ms, keeps a seconds
  ///     display to at most 11 wake-ups a second however many countdowns there are.
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
    let timeline = Self.makeTimeline(date: wallClock.currentDate, instant: origin, offset: .zero)
    state = Lock(EngineState(origin: origin, scheduler: Scheduler(maximumTolerance: tolerance), timeline: timeline))
    if drivesItself {
      let reference = WeakEngine(self)
      Task.detached(priority: .high) { await Self.drive(reference) }
    }
  }

  deinit {
    let (sleeper, parked) = state.withLock { state in state.driver.stop() }
    sleeper?.cancel()
    parked?.resume()
  }

  /// The current instant of the engine's clock.
  public var now: C.Instant { clock.now }

  /// The number of countdowns the engine holds (bound or not).
  public var count: Int { state.withLock { $0.scheduler.count } }

  /// How many times the driver has woken up since the engine started: for benchmarks and diagnostics.
  public var wakeUpCount: Int { state.withLock { $0.wakeUps } }

  /// Stops the driver and finishes every snapshot sequence; nothing is delivered afterwards.
  ///
  /// Whatever is added afterwards is dropped at once: a snapshot sequence ends without an element, a
  /// handle is inactive, a board row does not stay.
  public func shutdown() {
    let (sleeper, parked, closing) = state.withLock { state in
      let (sleeper, parked) = state.driver.stop()
      state.isShutDown = true
      return (sleeper, parked, state.scheduler.removeAll())
    }
    sleeper?.cancel()
    parked?.resume()
    for case .afterUnlock(let work) in closing { work() }
  }

  // MARK: - Mutations shared by handles, boards and sequences

  /// Runs `body` on the state under the lock, then performs its deliveries and wakes the driver if the
  /// earliest wake-up moved earlier.
  ///
  /// `now` is read under the lock, so that the scheduler sees time only move forward: read before it,
  /// a caller that waited for the lock would process a countdown at an instant older than the one the
  /// driver or another caller had just processed it at (a countdown that finished would show time
  /// left again).
  @discardableResult
  func mutate<Result>(_ body: (inout EngineState<C>, C.Instant) -> (Result, [Delivery])) -> Result {
    let (result, wake, main, afterUnlock) = state.withLock {
      state -> (Result, DriverWake?, [Delivery], [@Sendable () -> Void]) in
      let (result, deliveries) = body(&state, clock.now)
      guard !state.isShutDown else { return (result, nil, [], state.discardAfterShutdown()) }
      let (main, afterUnlock) = state.split(deliveries)
      let wake = drivesItself ? state.driver.wakeIfNeeded(nextWake: state.nextWake()) : nil
      return (result, wake, main, afterUnlock)
    }
    wake?.perform()
    for work in afterUnlock { work() }
    post(main)
    return result
  }

  /// Like ``mutate(_:)`` but, being on the main actor already, runs the main-actor deliveries at once
  /// (after whatever was waiting in the mailbox).
  @MainActor
  func mutateOnMain<Result>(_ body: (inout EngineState<C>, C.Instant) -> (Result, [Delivery])) -> Result {
    let (result, main, wake, afterUnlock) = state.withLock {
      state -> (Result, [Delivery], DriverWake?, [@Sendable () -> Void]) in
      let (result, deliveries) = body(&state, clock.now)
      guard !state.isShutDown else { return (result, [], nil, state.discardAfterShutdown()) }
      let (main, afterUnlock) = state.split(deliveries)
      let wake = drivesItself ? state.driver.wakeIfNeeded(nextWake: state.nextWake()) : nil
      return (result, main, wake, afterUnlock)
    }
    wake?.perform()
    for work in afterUnlock { work() }
    let waiting = mailbox.withLock { mailbox in
      defer { mailbox.work = [] }
      return mailbox.work + main
    }
    for case .mainActor(let work) in waiting { work() }
    return result
  }

  /// Hands main-actor work to the mailbox, and schedules a hop to the main actor to run it unless
  /// one is already on its way.
  ///
  /// The mailbox has its own lock, so that the main actor taking its work never waits for the driver
  /// serving a chunk under the engine's lock. Work from different threads may reach it in another
  /// order than it was produced in; that is harmless, since a render delivers whatever snapshot is
  /// newest when it runs, and a completion is posted together with (after) its final render.
  private func post(_ work: [Delivery]) {
    guard !work.isEmpty else { return }
    let schedule = mailbox.withLock { mailbox in
      if mailbox.work.isEmpty { mailbox.work = work } else { mailbox.work += work }
      defer { mailbox.isDrainScheduled = true }
      return !mailbox.isDrainScheduled
    }
    if schedule { Task { @MainActor in self.drainMailbox() } }
  }

  @MainActor
  private func drainMailbox() {
    let work = mailbox.withLock { mailbox in
      defer {
        mailbox.work = []
        mailbox.isDrainScheduled = false
      }
      return mailbox.work
    }
    for case .mainActor(let item) in work { item() }
  }

  // MARK: - Time

  /// Serves everything due now and delivers: one step of the driver, callable by hand in tests of an
  /// engine made with `drivesItself: false`. Main-actor work runs before it returns.
  @MainActor
  package func _serveDue() {
    let wallClock = wallClock
    mutateOnMain { state, now in ((), state.serve(at: now, wallDate: wallClock.currentDate)) }
  }

  private static func drive(_ reference: WeakEngine<C>) async {
    while true {
      guard let wait = reference.engine?.driverStep() else { return }
      switch wait {
      case .stop:
        return
      case .again:
        await Task.yield()
      case .sleep(let sleeper):
        await sleeper.value
      case .park:
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          guard let engine = reference.engine else { return continuation.resume() }
          engine.park(continuation)
        }
      }
    }
  }

  /// The most entries the driver serves while holding the lock.
  static var chunkSize: Int { 1_024 }

  private func driverStep() -> DriverWait {
    let (wait, main, afterUnlock) = state.withLock {
      state -> (DriverWait, [Delivery], [@Sendable () -> Void]) in
      guard !state.isShutDown else { return (.stop, [], []) }
      if !state.scheduler.isServing { state.wakeUps += 1 }
      // Read under the lock, like every mutation's `now`: see `mutate(_:)`. At most a chunk of the
      // due entries is served per step, so that mutations from other threads wait for a chunk, not
      // for a whole herd, and the main actor gets the first (longest waiting) changes early.
      let deliveries = state.serve(at: clock.now, wallDate: wallClock.currentDate, limit: Self.chunkSize)
      let (main, afterUnlock) = state.split(deliveries)
      if state.scheduler.isServing {
        state.driver = .running
        return (.again, main, afterUnlock)
      }
      guard let wake = state.nextWake() else {
        state.driver = .parked(nil, signalled: false)
        return (.park, main, afterUnlock)
      }
      let clock = self.clock
      let sleeper = Task { _ = try? await clock.sleep(until: wake, tolerance: nil) }
      state.driver = .sleeping(until: wake, sleeper)
      return (.sleep(sleeper), main, afterUnlock)
    }
    for work in afterUnlock { work() }
    post(main)
    return wait
  }

  private func park(_ continuation: CheckedContinuation<Void, Never>) {
    let resumeNow = state.withLock { state -> Bool in
      guard case .parked(nil, let signalled) = state.driver, !signalled, !state.isShutDown else {
        state.driver = .running
        return true
      }
      state.driver = .parked(continuation, signalled: false)
      return false
    }
    if resumeNow { continuation.resume() }
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
    let wallClock = wallClock
    mutate { state, now in ((), state.reanchor(date: wallClock.currentDate, instant: now)) }
  }

  /// Sets the offset of a trusted reference clock (a server) against the local wall clock, e.g. from a
  /// `ServerTimeEstimator`, and moves every countdown whose end came from a `Date`.
  ///
  /// - Throws: `TimelineError.referenceOffsetOutOfRange` for an absurd offset; nothing changes.
  public func setReferenceOffset(_ offset: Duration) throws {
    try mutate { state, now -> (Result<Void, TimelineError>, [Delivery]) in
      do throws(TimelineError) {
        state.timeline = try state.timeline.withReferenceOffset(offset)
        return (.success(()), state.retargetDates(at: now))
      } catch {
        return (.failure(error), [])
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

/// Main-actor work waiting for the main actor.
struct Mailbox: Sendable {
  /// Main-actor deliveries only.
  var work: [Delivery] = []
  var isDrainScheduled = false
}

/// A weak reference to an engine, so that the driver task does not keep a dropped engine alive.
final class WeakEngine<C: Clock>: Sendable where C.Duration == Duration {
  weak let engine: CountdownEngine<C>?

  init(_ engine: CountdownEngine<C>) {
    self.engine = engine
  }
}
