/// An engine's lifecycle, and what its driver task is doing while it runs: the one place where the
/// engine records that it shut down.
///
/// A state machine kept under the engine's lock: each transition changes the state and returns what
/// must be done about it (wake the driver, stop it), which the engine does once it has let go of the
/// lock. Nothing here resumes or cancels anything.
package enum EngineLifecycle<C: Clock> where C.Duration == Duration {
  /// What the driver task is doing, as far as operations need to know.
  package enum Driver {
    /// Between steps: the next step looks at the schedule anyway.
    case stepping
    /// Sleeping until an instant, in a task that is cancelled to wake it early.
    case sleeping(until: C.Instant, Task<Void, Never>)
    /// Nothing scheduled: waiting (once its continuation is there) to be told there is work;
    /// `signalled` when work came before the continuation did.
    case parked(CheckedContinuation<Void, Never>?, signalled: Bool)
  }

  /// Operations change the rows; the driver serves what is due.
  case running(Driver)
  /// `shutdown()` ran: whatever an operation adds is dropped at once and nothing is posted to the main
  /// actor; the driver task was told to stop and has not yet seen it.
  case shuttingDown
  /// Shut down, with no driver task left (it stopped, or the engine never had one).
  case shutDown

  /// How to wake the driver; done after the lock is let go.
  package enum Wake {
    case cancel(Task<Void, Never>)
    case resume(CheckedContinuation<Void, Never>)

    package func perform() {
      switch self {
      case .cancel(let sleeper):
        // Cancelling runs the sleep's cancellation handler here, which resumes the sleeper.
        checkUnlocked("Cancelling the driver's sleep")
        sleeper.cancel()
      case .resume(let continuation):
        continuation.resumeUnlocked()
      }
    }
  }

  /// What the driver does after a step.
  package enum Step {
    /// A serve is under way: step again at once, once other tasks had a turn.
    case again
    /// Wait for the sleeper (cancelled if the driver is needed earlier).
    case sleep(Task<Void, Never>)
    /// Wait to be told there is work.
    case park
    /// The engine shut down: end the task.
    case stop
  }

  /// Whether the engine takes work (it has not shut down).
  package var isRunning: Bool {
    if case .running = self { true } else { false }
  }

  // MARK: - Operations

  /// An operation left `nextWake` as the earliest wake-up (nil: nothing scheduled): how to wake the
  /// driver if it sleeps past it or is parked.
  package mutating func scheduled(nextWake: C.Instant?) -> Wake? {
    guard let nextWake, case .running(let driver) = self else { return nil }
    switch driver {
    case .sleeping(let until, let sleeper) where nextWake < until:
      self = .running(.stepping)
      return .cancel(sleeper)
    case .parked(let continuation?, _):
      self = .running(.stepping)
      return .resume(continuation)
    case .parked(nil, _):
      self = .running(.parked(nil, signalled: true))
      return nil
    case .sleeping, .stepping:
      return nil
    }
  }

  /// Shuts down (`hasDriver`: a driver task runs and must see it): how to wake the driver so that it
  /// stops. `nil` as the wake and `false` if the engine was shut down already.
  package mutating func shutDown(hasDriver: Bool) -> (shutsDown: Bool, wake: Wake?) {
    guard case .running(let driver) = self else { return (false, nil) }
    self = hasDriver ? .shuttingDown : .shutDown
    switch driver {
    case .sleeping(_, let sleeper): return (true, .cancel(sleeper))
    case .parked(let continuation?, _): return (true, .resume(continuation))
    case .parked(nil, _), .stepping: return (true, nil)
    }
  }

  // MARK: - The driver

  /// The driver is about to step: `true` to serve, `false` to stop (the engine is shut down from then on).
  package mutating func driverSteps() -> Bool {
    switch self {
    case .running:
      self = .running(.stepping)
      return true
    case .shuttingDown, .shutDown:
      self = .shutDown
      return false
    }
  }

  /// After a step: serve again at once (`isServing`), sleep until `deadline` in the task `sleeper`
  /// makes, or park with nothing scheduled (`deadline` nil).
  package mutating func driverStepped(
    isServing: Bool, deadline: C.Instant?, sleeper: (C.Instant) -> Task<Void, Never>
  ) -> Step {
    guard case .running = self else { return .stop }
    if isServing { return .again }
    guard let deadline else {
      self = .running(.parked(nil, signalled: false))
      return .park
    }
    let sleeper = sleeper(deadline)
    self = .running(.sleeping(until: deadline, sleeper))
    return .sleep(sleeper)
  }

  /// The parked driver's continuation is there: keeps it, or hands it back to be resumed at once (work
  /// came meanwhile, or the engine is shutting down).
  package mutating func driverParks(_ continuation: CheckedContinuation<Void, Never>)
    -> CheckedContinuation<Void, Never>?
  {
    guard case .running(.parked(nil, signalled: false)) = self else {
      if case .running = self { self = .running(.stepping) }
      return continuation
    }
    self = .running(.parked(continuation, signalled: false))
    return nil
  }
}
