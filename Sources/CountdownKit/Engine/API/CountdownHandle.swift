public import Foundation

/// Controls one countdown registered with a ``CountdownEngine``: cancel, pause, resume, retarget,
/// extend, show through another display. All methods are synchronous and safe from any thread; on a
/// countdown that was cancelled or released they do nothing.
///
/// A change shows at once. A change that leaves the countdown at zero (a retarget into the past, a
/// negative extension) reports its completion at the engine's next wake-up, at most one tolerance
/// later, so that changes made one right after the other count as one: `extend(by: a)` then
/// `extend(by: b)` behaves exactly like `extend(by: a + b)`, even when the first alone would have
/// reached zero.
///
/// ## When the engine lets go of a countdown
///
/// A countdown added to an engine is over once it has finished, its completion (and the snapshot that
/// shows it at zero) has been delivered, and its display will not change again. The engine then
/// releases it, whether or not you kept its handle, as a one-shot `Timer` invalidates itself once it
/// has fired: `isActive` turns false, `countdown` is `nil` and the handle's other methods do nothing. So
/// fire-and-forget countdowns leave nothing behind, and a handle costs nothing to keep or drop (it is a
/// plain value: no object per countdown, no work when it goes away). To count again, add a new
/// countdown; to change one before it is over, keep its handle.
///
/// A countdown that never settles (an overtime or elapsed display changes forever) or that is paused
/// is not over: it stays until you cancel it, as a repeating timer would.
public struct CountdownHandle<C: Clock>: Sendable, Hashable where C.Duration == Duration {
  @usableFromInline let engine: CountdownEngine<C>
  @usableFromInline let reference: RowReference

  @usableFromInline
  init(engine: CountdownEngine<C>, reference: RowReference) {
    self.engine = engine
    self.reference = reference
  }

  /// Stops the countdown: no more snapshots (not even one already on its way), and its completion
  /// will not fire.
  public func cancel() {
    engine.cancel(reference)
  }

  /// Freezes the remaining time. A countdown that followed a wall-clock date keeps its frozen time
  /// from then on, whatever the wall clock does.
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
  public func pause() {
    change { state, row, now in state.core.change(row, .pause, at: now, into: &state.effects) }
  }

  /// Runs again from where it was paused.
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
  public func resume() {
    change { state, row, now in state.core.change(row, .resume, at: now, into: &state.effects) }
  }

  /// Counts to a new end instant instead (a paused countdown stays paused; see
  /// `Countdown.retargeted(to:)`). A completion that already fired is re-armed if the new end is in
  /// the future; one that has not fired yet fires at the new end, not the old one.
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
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
  /// - Throws: `WallClockTimelineError` for a date that is not finite or absurdly far away; the countdown is
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
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
  public func extend(by amount: Duration) {
    let ticks = Ticks.ceiling(amount)
    change { state, row, now in state.core.change(row, .extend(ticks), at: now, into: &state.effects) }
  }

  /// Shows the countdown through `display` from now on: its subscriber gets `display`'s value at once,
  /// then at each change of it. The countdown itself (its end, its pause, the date it follows) and its
  /// completion stay as they are: a cell that switches from a coarse display to seconds as a deadline
  /// nears keeps its countdown and its `onFinish`. Snapshots of the old display still on their way are
  /// dropped. Nothing happens on a countdown that was cancelled or released.
  ///
  /// - Throws: ``CountdownHandleError/valueTypeMismatch(receives:shows:)`` when `display`'s values are
  ///   not of the type the subscriber receives, ``CountdownHandleError/showsNothing`` for a countdown
  ///   added with only a completion callback. The countdown is left unchanged.
  @inlinable
  public func setDisplay<Display: CountdownDisplay>(_ display: Display) throws(CountdownHandleError) {
    let plan = DisplayPlan.make(for: display)
    let origin = engine.origin
    try engine.setDisplay(of: reference, valueType: Display.Value.self) { state in
      state.displayClass(for: display, plan: plan, origin: origin)
    }
  }

  /// The countdown as it is now, or `nil` once it was cancelled or released.
  public var countdown: Countdown<C.Instant>? {
    engine.state.withLock { state in
      state.core.rows.isCurrent(reference.row, generation: reference.generation)
        ? engine.countdown(of: reference.row, in: state.core) : nil
    }
  }

  /// Whether the countdown is still registered with the engine.
  public var isActive: Bool {
    engine.state.withLock { $0.core.rows.isCurrent(reference.row, generation: reference.generation) }
  }

  /// Whether both handles control the same countdown of the same engine.
  public static func == (lhs: CountdownHandle, rhs: CountdownHandle) -> Bool {
    lhs.engine === rhs.engine && lhs.reference == rhs.reference
  }

  /// Hashes the engine and the countdown the handle controls.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(engine))
    hasher.combine(reference)
  }

  /// Runs `body` on the countdown's row if it is still this handle's countdown.
  @discardableResult
  private func change<Result>(_ body: (inout EngineState<C>, Int, Tick) -> Result) -> Result? {
    engine.mutate(reference, body)
  }
}
