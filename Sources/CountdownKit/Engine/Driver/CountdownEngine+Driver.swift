// The driver: one task per engine, for as long as the engine runs, that sleeps until the next slot with
// something due, serves it in chunks, and sleeps again; with nothing scheduled it parks until a
// mutation wakes it. Each sleep is a task of its own that the driver awaits (see `driverStep()`).

extension CountdownEngine {
  /// The most rows the driver serves while holding the lock.
  static var chunkSize: Int { 1_024 }

  /// The longest the driver sleeps at once, in ticks (an hour): a far wake-up is reached in steps, so
  /// that no clock is ever asked to sleep until an instant it cannot represent.
  static var longestSleep: Tick { 3_600_000_000_000 }

  static func drive(_ reference: WeakEngine<C>) async {
    while true {
      guard let step = reference.engine?.driverStep() else { return }
      switch step {
      case .stop:
        return
      case .again:
        await Task.yield()
      case .sleep(let sleeper):
        await sleeper.value
      case .park:
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          guard let engine = reference.engine else { return continuation.resumeUnlocked() }
          engine.park(continuation)
        }
      }
    }
  }

  /// One step: serves a chunk of what is due, then decides how to wait.
  private func driverStep() -> EngineLifecycle<C>.Step {
    let (step, needsHop) = state.withLock { state -> (EngineLifecycle<C>.Step, Bool) in
      guard state.lifecycle.driverSteps() else { return (.stop, false) }
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
      let isServing = state.core.isServing
      let wake = isServing ? nil : state.core.nextWake()
      if !isServing { holdWhileScheduled(&state, isScheduled: wake != nil) }
      let deadline = wake.map { instant(Swift.min($0, Ticks.sum(now, Self.longestSleep))) }
      let clock = self.clock
      let step = state.lifecycle.driverStepped(isServing: isServing, deadline: deadline) { deadline in
        // A clock's sleep ends early only when its task is cancelled, so each sleep is a task of its
        // own, cancelled by an operation that needs the driver earlier.
        Task { _ = try? await clock.sleep(until: deadline, tolerance: nil) }
      }
      return (step, needsHop)
    }
    outbox.deliver()
    if needsHop { scheduleDrain() }
    return step
  }

  private func park(_ continuation: CheckedContinuation<Void, Never>) {
    state.withLock { $0.lifecycle.driverParks(continuation) }?.resumeUnlocked()
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
