import Foundation

/// Everything the engine keeps behind its lock.
struct EngineState<C: Clock> where C.Duration == Duration {
  /// The clock's instant that ``EngineTick``s count from.
  let origin: C.Instant
  var scheduler: Scheduler
  var timeline: Timeline<C.Instant>
  var driver: DriverState<C> = .running
  var isShutDown = false
  var wakeUps = 0
  init(origin: C.Instant, scheduler: Scheduler, timeline: Timeline<C.Instant>) {
    self.origin = origin
    self.scheduler = scheduler
    self.timeline = timeline
  }

  /// Performs immediate deliveries now (under the lock, so a stream sees its snapshots in order) and
  /// splits the rest.
  ///
  /// - Returns: the main-actor deliveries, for the engine's mailbox (`deliveries` itself, not a copy,
  ///   when that is all there is: the common case of a wake-up), and the work to run once the lock is
  ///   released.
  func split(_ deliveries: [Delivery]) -> (main: [Delivery], afterUnlock: [@Sendable () -> Void]) {
    var onlyMain = true
    var afterUnlock: [@Sendable () -> Void] = []
    for delivery in deliveries {
      switch delivery {
      case .mainActor: continue
      case .immediate(let work): work()
      case .afterUnlock(let work): afterUnlock.append(work)
      }
      onlyMain = false
    }
    if onlyMain { return (deliveries, afterUnlock) }
    return (deliveries.filter { if case .mainActor = $0 { true } else { false } }, afterUnlock)
  }

  /// After shutdown: drops whatever a mutation added, returning the work that finishes its sequences.
  mutating func discardAfterShutdown() -> [@Sendable () -> Void] {
    scheduler.removeAll().compactMap { delivery in
      guard case .afterUnlock(let work) = delivery else { return nil }
      return work
    }
  }

  /// One wake-up (or one chunk of it): notice a wall-clock jump, then serve what is due, at most
  /// `limit` entries (see ``Scheduler/advance(to:limit:)``).
  mutating func serve(at now: C.Instant, wallDate: Date, limit: Int = .max) -> [Delivery] {
    let expected = timeline.date(for: now).addingTimeInterval(-timeline.referenceOffset.timeInterval)
    guard abs(wallDate.timeIntervalSince(expected)) > 1 else { return scheduler.advance(to: tick(now), limit: limit) }
    return reanchor(date: wallDate, instant: now) + scheduler.advance(to: tick(now), limit: limit)
  }

  /// Re-anchors the timeline on a fresh (date, instant) pair and moves date-based countdowns.
  mutating func reanchor(date: Date, instant: C.Instant) -> [Delivery] {
    guard let moved = try? timeline.reanchored(date: date, instant: instant) else { return [] }
    timeline = moved
    return retargetDates(at: instant)
  }

  mutating func retargetDates(at now: C.Instant) -> [Delivery] {
    let timeline = timeline
    let origin = origin
    return scheduler.retargetDates(at: tick(now)) { date in
      (try? timeline.instant(for: date)).map { EngineTick(offset: origin.duration(to: $0)) }
    }
  }
}

// The scheduler's operations in the clock's instants: the conversions to and from ticks happen here,
// once per operation, so that the scheduler itself is not generic.
extension EngineState {
  /// `instant` as a tick.
  func tick(_ instant: C.Instant) -> EngineTick {
    EngineTick(offset: origin.duration(to: instant))
  }

  /// `tick` as an instant of the clock.
  func instant(_ tick: EngineTick) -> C.Instant {
    origin.advanced(by: tick.offset)
  }

  /// Adds a countdown; see ``Scheduler/add(_:target:renderer:tolerance:onFinish:removesWhenSettled:at:)``.
  mutating func add(
    _ countdown: Countdown<C.Instant>,
    target: Date? = nil,
    renderer: Renderer?,
    tolerance: Duration? = nil,
    onFinish: FinishWork?,
    removesWhenSettled: Bool = false,
    at now: C.Instant
  ) -> (id: EntryID, deliveries: [Delivery]) {
    scheduler.add(
      countdown.converted(tick), target: target, renderer: renderer, tolerance: tolerance, finishing: onFinish,
      removesWhenSettled: removesWhenSettled, at: tick(now))
  }

  /// Changes a countdown; see ``Scheduler/update(_:at:target:_:)``.
  mutating func update(
    _ id: EntryID,
    at now: C.Instant,
    target: Date?? = nil,
    _ transform: (Countdown<C.Instant>) -> Countdown<C.Instant>
  ) -> [Delivery] {
    let origin = origin
    return scheduler.update(id, at: tick(now), target: target) { countdown in
      transform(countdown.converted { origin.advanced(by: $0.offset) }).converted {
        EngineTick(offset: origin.duration(to: $0))
      }
    }
  }

  /// Gives a countdown a renderer; see ``Scheduler/attach(_:tolerance:to:at:)``.
  mutating func attach(_ renderer: Renderer, tolerance: Duration, to id: EntryID, at now: C.Instant)
    -> [Delivery]
  {
    scheduler.attach(renderer, tolerance: tolerance, to: id, at: tick(now))
  }

  /// Takes a countdown's renderer away; see ``Scheduler/detach(_:at:)``.
  mutating func detach(_ id: EntryID, at now: C.Instant) -> [Delivery] {
    scheduler.detach(id, at: tick(now))
  }

  /// See ``Scheduler/removeWhenSettled(_:at:)``.
  mutating func removeWhenSettled(_ id: EntryID, at now: C.Instant) -> [Delivery] {
    scheduler.removeWhenSettled(id, at: tick(now))
  }

  /// The countdown of a live entry, in the clock's instants.
  func countdown(of id: EntryID) -> Countdown<C.Instant>? {
    scheduler.countdown(of: id)?.converted(instant)
  }

  /// When the driver should wake next, in the clock's instants.
  mutating func nextWake() -> C.Instant? {
    scheduler.nextWake().map(instant)
  }
}

/// What the driver task is doing, as far as mutations need to know.
enum DriverState<C: Clock> where C.Duration == Duration {
  /// Between steps: the next step will look at the schedule anyway.
  case running
  /// Sleeping until an instant in a task that can be cancelled to wake it early.
  case sleeping(until: C.Instant, Task<Void, Never>)
  /// Nothing scheduled: waiting (once the continuation is there) to be told there is work.
  case parked(CheckedContinuation<Void, Never>?, signalled: Bool)
  /// Shut down.
  case stopped

  /// Wakes the driver if the earliest wake-up is now earlier than what it sleeps until.
  mutating func wakeIfNeeded(nextWake: C.Instant?) -> DriverWake? {
    guard let nextWake else { return nil }
    switch self {
    case .sleeping(let until, let sleeper) where nextWake < until:
      self = .running
      return .cancel(sleeper)
    case .parked(let continuation?, _):
      self = .running
      return .resume(continuation)
    case .parked(nil, _):
      self = .parked(nil, signalled: true)
      return nil
    case .sleeping, .running, .stopped:
      return nil
    }
  }

  /// Stops the driver, returning what must be cancelled or resumed for it to notice.
  mutating func stop() -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) {
    defer { self = .stopped }
    switch self {
    case .sleeping(_, let sleeper): return (sleeper, nil)
    case .parked(let continuation, _): return (nil, continuation)
    case .running, .stopped: return (nil, nil)
    }
  }
}

/// How to wake the driver; performed after the lock is released.
enum DriverWake {
  case cancel(Task<Void, Never>)
  case resume(CheckedContinuation<Void, Never>)

  func perform() {
    switch self {
    case .cancel(let sleeper): sleeper.cancel()
    case .resume(let continuation): continuation.resume()
    }
  }
}

/// What the driver does after a step.
enum DriverWait {
  /// A serve is under way: step again at once, once other tasks had a turn.
  case again
  case sleep(Task<Void, Never>)
  case park
  case stop
}
