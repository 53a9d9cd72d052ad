public import Foundation

/// Controls one countdown registered with a ``CountdownEngine``: cancel, pause, resume, retarget,
/// extend. All methods are synchronous and safe from any thread; on a countdown that was cancelled or
/// has ended its subscription they do nothing.
///
/// A change shows at once. A change that leaves the countdown at zero (a retarget into the past, a
/// negative extension) reports its completion at the engine's next wake-up, at most one tolerance
/// later, so that changes made one right after the other count as one: `extend(by: a)` then
/// `extend(by: b)` behaves exactly like `extend(by: a + b)`, even when the first alone would have
/// reached zero.
public struct CountdownHandle<C: Clock>: Sendable, Hashable where C.Duration == Duration {
  let engine: CountdownEngine<C>
  let id: EntryID

  /// Stops the countdown: no more snapshots, and its completion will not fire.
  public func cancel() {
    engine.mutate { state, _ in ((), state.scheduler.remove(id)) }
  }

  /// Freezes the remaining time. A countdown that followed a wall-clock date keeps its frozen time
  /// from then on, whatever the wall clock does.
  public func pause() {
    engine.mutate { state, now in ((), state.update(id, at: now, target: .some(nil)) { $0.paused(at: now) }) }
  }

  /// Runs again from where it was paused.
  public func resume() {
    engine.mutate { state, now in ((), state.update(id, at: now) { $0.resumed(at: now) }) }
  }

  /// Counts to a new end instant instead (a paused countdown stays paused; see
  /// `Countdown.retargeted(to:)`). A completion that already fired is re-armed if the new end is in
  /// the future; one that has not fired yet fires at the new end, not the old one.
  public func retarget(to end: C.Instant) {
    engine.mutate { state, now in
      ((), state.update(id, at: now, target: .some(nil)) { $0.retargeted(to: end) })
    }
  }

  /// Counts to a wall-clock date instead, converted through the engine's timeline and re-converted
  /// when the wall clock changes.
  ///
  /// On a paused countdown the date is applied once, as `Countdown.retargeted(to:)` does (the frozen
  /// time becomes what would have been left when it was paused), and is not followed afterwards: a
  /// paused countdown keeps its frozen time whatever the wall clock does, and counts it down from the
  /// moment it resumes.
  ///
  /// - Throws: `TimelineError` for a date that is not finite or absurdly far away; the countdown is
  ///   left unchanged.
  public func retarget(to date: Date) throws {
    try engine.mutate { state, now -> (Result<Void, any Error>, [Delivery]) in
      do {
        let end = try state.timeline.instant(for: date)
        return (.success(()), state.update(id, at: now, target: .some(date)) { $0.retargeted(to: end) })
      } catch {
        return (.failure(error), [])
      }
    }.get()
  }

  /// Adds `amount` to the time left (subtracts, if negative), running or paused.
  public func extend(by amount: Duration) {
    engine.mutate { state, now in
      ((), state.update(id, at: now) { $0.extended(by: amount) })
    }
  }

  /// Ends the subscription once the countdown has finished and its display will not change again.
  func removeWhenSettled() {
    engine.mutate { state, now in ((), state.removeWhenSettled(id, at: now)) }
  }

  /// The countdown as it is now, or `nil` once it was cancelled or its subscription ended.
  public var countdown: Countdown<C.Instant>? {
    engine.state.withLock { $0.countdown(of: id) }
  }

  /// Whether the countdown is still registered with the engine.
  public var isActive: Bool {
    engine.state.withLock { $0.scheduler.contains(id) }
  }

  /// Whether both handles control the same countdown of the same engine.
  public static func == (lhs: CountdownHandle, rhs: CountdownHandle) -> Bool {
    lhs.engine === rhs.engine && lhs.id == rhs.id
  }

  /// Hashes the engine and the countdown the handle controls.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(engine))
    hasher.combine(id)
  }
}
