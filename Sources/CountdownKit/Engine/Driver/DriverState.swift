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
  mutating func wakeIfNeeded(nextWake: C.Instant?) -> Wake? {
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

  /// Stops the driver, returning how to tell it.
  mutating func stop() -> Wake? {
    defer { self = .stopped }
    switch self {
    case .sleeping(_, let sleeper): return .cancel(sleeper)
    case .parked(let continuation?, _): return .resume(continuation)
    case .parked(nil, _), .running, .stopped: return nil
    }
  }
}

extension DriverState {
  /// How to wake the driver; performed after the lock is released.
  enum Wake {
    case cancel(Task<Void, Never>)
    case resume(CheckedContinuation<Void, Never>)

    func perform() {
      switch self {
      case .cancel(let sleeper):
        // Cancelling runs the sleep's cancellation handler here, which resumes the sleeper.
        checkUnlocked("Cancelling the driver's sleep")
        sleeper.cancel()
      case .resume(let continuation): continuation.resumeUnlocked()
      }
    }
  }
}
