// The driver: one task per engine that sleeps until the next slot with something due, serves it in
// chunks, and sleeps again; with nothing scheduled it parks until a mutation wakes it.

extension CountdownEngine {
  /// What the driver does after a step.
  enum DriverWait {
    /// A serve is under way: step again at once, once other tasks had a turn.
    case again
    case sleep(Task<Void, Never>)
    case park
    case stop
  }

  /// The most rows the driver serves while holding the lock.
  static var chunkSize: Int { 1_024 }

  /// The longest the driver sleeps at once, in ticks (an hour): a far wake-up is reached in steps, so
  /// that no clock is ever asked to sleep until an instant it cannot represent.
  static var longestSleep: Tick { 3_600_000_000_000 }

  static func drive(_ reference: WeakEngine<C>) async {
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

  /// One step: serves a chunk of what is due, then decides how to wait.
  private func driverStep() -> DriverWait {
    let (wait, needsHop) = state.withLock { state -> (DriverWait, Bool) in
      guard !state.isShutDown else { return (.stop, false) }
      let now = tick(now: clock.now)
      let continuesServe = state.core.isServing
      if !continuesServe {
        state.wakeUps += 1
        noticeWallClockJump(&state, at: now)
      }
      // At most a chunk per step, so that mutations from other threads wait for a chunk, not for a
      // whole herd, and the main actor gets the first (longest waiting) changes early.
      state.core.serve(at: now, limit: Self.chunkSize, into: &state.effects)
      let needsHop = flush(&state, at: now, continuesServe: continuesServe)
      if state.core.isServing {
        state.driver = .running
        return (.again, needsHop)
      }
      guard let wake = state.core.nextWake() else {
        state.driver = .parked(nil, signalled: false)
        holdWhileScheduled(&state, isScheduled: false)
        return (.park, needsHop)
      }
      holdWhileScheduled(&state, isScheduled: true)
      let deadline = instant(Swift.min(wake, Ticks.sum(now, Self.longestSleep)))
      let clock = self.clock
      let sleeper = Task { _ = try? await clock.sleep(until: deadline, tolerance: nil) }
      state.driver = .sleeping(until: deadline, sleeper)
      return (.sleep(sleeper), needsHop)
    }
    outbox.deliver()
    if needsHop { scheduleDrain() }
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

  /// Serves everything due now and delivers: one step of the driver, callable by hand in tests of an
  /// engine made with `drivesItself: false`. Main-actor work runs before it returns.
  @MainActor
  package func _serveDue() {
    mutateOnMain { state, now in serveAll(&state, at: now) }
  }

  /// Serves everything due now, as the driver does, from any thread: main-actor work follows in a hop.
  /// For tests of an engine made with `drivesItself: false` that hold the main actor meanwhile.
  package func _serveDueElsewhere() {
    mutate { state, now in serveAll(&state, at: now) }
  }

  private func serveAll(_ state: inout EngineState<C>, at now: Tick) {
    noticeWallClockJump(&state, at: now)
    repeat {
      state.core.serve(at: now, into: &state.effects)
    } while state.core.isServing
  }
}
