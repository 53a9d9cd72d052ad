public import Foundation

/// Controls one countdown registered with a ``CountdownEngine``: cancel, pause, resume, retarget,
/// extend. All methods are synchronous and safe from any thread; on a countdown that was cancelled or
/// released they do nothing.
///
/// A change shows at once. A change that leaves the countdown at zero (a retarget into the past, a
/// negative extension) reports its completion at the engine's next wake-up, at most one tolerance
/// later, so that changes made one right after the other count as one: `extend(by: a)` then
/// `extend(by: b)` behaves exactly like `extend(by: a + b)`, even when the first alone would have
/// reached zero.
///
/// ## Who keeps a countdown
///
/// The engine keeps a countdown while it can still matter: while it runs, while it is paused, and,
/// once finished, for as long as you keep a copy of its handle, so that you can still extend or
/// retarget it (a finished countdown moved into the future runs, and completes, again). When the last
/// copy of the handle goes away (or you never kept it), a finished countdown is released as soon as its
/// completion has been delivered and its display will not change again: fire-and-forget countdowns
/// leave nothing behind. A countdown whose display never settles (an overtime or elapsed display) or
/// that is paused stays until you cancel it, as a repeating timer would; keep its handle.
public struct CountdownHandle<C: Clock>: Sendable, Hashable where C.Duration == Duration {
  let token: HandleToken<C>

  init(engine: CountdownEngine<C>, reference: RowReference) {
    token = HandleToken(engine: engine, reference: reference)
  }

  var engine: CountdownEngine<C> { token.engine }

  /// Stops the countdown: no more snapshots (not even one already on its way), and its completion
  /// will not fire.
  public func cancel() {
    change { state, row, _ in state.core.remove(row, into: &state.effects) }
  }

  /// Freezes the remaining time. A countdown that followed a wall-clock date keeps its frozen time
  /// from then on, whatever the wall clock does.
  public func pause() {
    change { state, row, now in state.core.change(row, .pause, at: now, into: &state.effects) }
  }

  /// Runs again from where it was paused.
  public func resume() {
    change { state, row, now in state.core.change(row, .resume, at: now, into: &state.effects) }
  }

  /// Counts to a new end instant instead (a paused countdown stays paused; see
  /// `Countdown.retargeted(to:)`). A completion that already fired is re-armed if the new end is in
  /// the future; one that has not fired yet fires at the new end, not the old one.
  public func retarget(to end: C.Instant) {
    let end = engine.tick(end: end)
    change { state, row, now in
      state.core.change(row, .retarget(end: end, target: nil), at: now, into: &state.effects)
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
    let engine = engine
    try change { state, row, now -> Result<Void, any Error> in
      do {
        let end = engine.tick(end: try state.timeline.instant(for: date))
        let change = EngineCore.Change.retarget(end: end, target: date.timeIntervalSinceReferenceDate)
        state.core.change(row, change, at: now, into: &state.effects)
        return .success(())
      } catch {
        return .failure(error)
      }
    }?.get()
  }

  /// Adds `amount` to the time left (subtracts, if negative), running or paused. Sums beyond ±292 years
  /// from the engine's start are held there (an end that far never comes).
  public func extend(by amount: Duration) {
    let ticks = Ticks.ceiling(amount)
    change { state, row, now in state.core.change(row, .extend(ticks), at: now, into: &state.effects) }
  }

  /// The countdown as it is now, or `nil` once it was cancelled or released.
  public var countdown: Countdown<C.Instant>? {
    engine.state.withLock { state in
      state.core.rows.isCurrent(token.reference.row, generation: token.reference.generation)
        ? engine.countdown(of: token.reference.row, in: state.core) : nil
    }
  }

  /// Whether the countdown is still registered with the engine.
  public var isActive: Bool {
    engine.state.withLock { $0.core.rows.isCurrent(token.reference.row, generation: token.reference.generation) }
  }

  /// Whether both handles control the same countdown of the same engine.
  public static func == (lhs: CountdownHandle, rhs: CountdownHandle) -> Bool {
    lhs.token.engine === rhs.token.engine && lhs.token.reference == rhs.token.reference
  }

  /// Hashes the engine and the countdown the handle controls.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(token.engine))
    hasher.combine(token.reference)
  }

  /// Runs `body` on the countdown's row if it is still this handle's countdown.
  @discardableResult
  private func change<Result>(_ body: (inout EngineState<C>, Int, Tick) -> Result) -> Result? {
    engine.mutate(token.reference, body)
  }
}

/// What every copy of a handle shares: when the last copy goes away, the engine may release the
/// countdown once it has settled (see ``CountdownHandle``).
final class HandleToken<C: Clock>: Sendable where C.Duration == Duration {
  let engine: CountdownEngine<C>
  let reference: RowReference

  init(engine: CountdownEngine<C>, reference: RowReference) {
    self.engine = engine
    self.reference = reference
  }

  deinit {
    engine.mutate(reference) { state, row, now in state.core.releaseWhenSettled(row, at: now, into: &state.effects) }
  }
}
