public import CountdownKit
public import Foundation

/// A clock for tests that moves only when told to, and keeps a wall clock and a media clock beside it.
///
/// `advance(by:)` moves monotonic, wall and media time together, as real time passing does;
/// `advanceAsleep(by:)` moves monotonic and wall time but not media time, as a device that sleeps does
/// (`ContinuousClock` counts the sleep, Core Animation's clock does not); `jumpWallClock(by:)` moves
/// only the wall clock, as a user editing the device clock does. Sleepers
/// wake when an advance reaches their deadline, never on their own, so tests need no real waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let engine = CountdownEngine(clock: clock, wallClock: clock)
/// clock.advance(by: .seconds(1))
/// ```
public final class ManualClock: Clock, WallClock, Sendable {
  /// An instant of a manual clock: the time since the clock was made.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The time since the clock's origin.
    public var offset: Duration

    /// The instant `offset` after the origin.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The instant `rhs` after `lhs`.
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: rhs)
    }

    /// The instant `rhs` before `lhs`.
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: .zero - rhs)
    }

    /// The offset, e.g. "t+1.5 seconds".
    public var description: String { "t+\(offset)" }
  }

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var date: Date
    /// The time the clock has moved while awake (``mediaTime``).
    var awake = Duration.zero
    var sleepers: [UInt64: Sleeper] = [:]
    var nextID: UInt64 = 0
    /// Sleeps that have begun but not yet either registered a sleeper or returned.
    var starting: Set<UInt64> = []
    /// Sleeps among those that were cancelled before they registered.
    var cancelledWhileStarting: Set<UInt64> = []
  }

  private let state: Lock<State>

  /// A clock at instant zero whose wall clock reads `date`.
  public init(date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    state = Lock(State(date: date))
  }

  /// The current instant.
  public var now: Instant { state.withLock { $0.now } }

  /// The current wall-clock date.
  public var currentDate: Date { state.withLock { $0.date } }

  /// One attosecond: the clock is as fine as `Duration`.
  public var minimumResolution: Duration { Duration(secondsComponent: 0, attosecondsComponent: 1) }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The deadlines of the sleeping tasks, earliest first.
  public var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

  /// Suspends until an advance reaches `deadline` (at once if it has been reached); throws
  /// `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      state.starting.insert(state.nextID)
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let immediate = state.withLock { state -> Result<Void, any Error>? in
          state.starting.remove(id)
          if state.cancelledWhileStarting.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return nil
        }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      // Cancellation can come at any point: before the sleeper is registered (it then finds the
      // mark and throws at once), while it sleeps (woken here), or after it returned (nothing to do).
      let sleeper = state.withLock { state -> Sleeper? in
        if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
        if state.starting.contains(id) { state.cancelledWhileStarting.insert(id) }
        return nil
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves monotonic and wall time forward by `duration` and wakes every sleeper now due.
  ///
  /// - Precondition: `duration` is not negative.
  public func advance(by duration: Duration) {
    advance(by: duration, asleep: false)
  }

  /// Moves monotonic and wall time forward by `duration` as a device asleep through it does, and wakes
  /// every sleeper now due: ``mediaTime`` (Core Animation's clock) stays where it was.
  ///
  /// - Precondition: `duration` is not negative.
  public func advanceAsleep(by duration: Duration) {
    advance(by: duration, asleep: true)
  }

  /// The media time: how long the clock has moved while awake (Core Animation's `CACurrentMediaTime()`,
  /// which stops while the device sleeps), read together with ``now`` under one lock.
  public var mediaTime: MediaTime { state.withLock { MediaTime(offset: $0.awake) } }

  private func advance(by duration: Duration, asleep: Bool) {
    precondition(
      duration >= .zero, "A manual clock cannot go back in time; use jumpWallClock(by:) to move only the wall clock")
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      state.date = state.date.addingTimeInterval(duration.timeInterval)
      if !asleep { state.awake += duration }
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers.removeValue(forKey: id) }
      return due.values.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Moves time forward to `instant` (no-op if it is not later than now).
  public func advance(to instant: Instant) {
    let now = self.now
    guard instant > now else { return }
    advance(by: now.duration(to: instant))
  }

  /// Moves only the wall clock, as a user editing the device clock would; monotonic time stays.
  public func jumpWallClock(by duration: Duration) {
    state.withLock { $0.date = $0.date.addingTimeInterval(duration.timeInterval) }
  }
}

extension CountdownEngine where C == ManualClock {
  /// An engine that does nothing on its own: no driver task; time moves when you advance `clock`, and
  /// what is due is served when you call ``serveDue()``. For tests (yours and ours) and benchmarks that
  /// need every step to happen exactly when they say.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let engine = CountdownEngine.manuallyDriven(by: clock)
  /// engine.add(Countdown(duration: .seconds(3), startingAt: clock.now), display: .seconds) { print($0.value) }
  /// clock.advance(by: .seconds(1))
  /// engine.serveDue()   // prints 3 seconds, then 2 seconds
  /// ```
  public static func manuallyDriven(by clock: ManualClock, tolerance: Duration = .milliseconds(100)) -> CountdownEngine
  {
    CountdownEngine(clock: clock, wallClock: clock, tolerance: tolerance, drivesItself: false)
  }

  /// Serves everything due at the clock's current instant and delivers it, all before returning: one
  /// wake-up of a driver, made by hand.
  @MainActor
  public func serveDue() {
    _serveDue()
  }
}
