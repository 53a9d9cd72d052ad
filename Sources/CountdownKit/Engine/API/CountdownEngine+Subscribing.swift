public import Foundation

extension CountdownEngine {
  /// Adds a countdown whose snapshots go to `onChange` on the main actor.
  ///
  /// `onChange` is called soon after this returns with the current snapshot, then whenever what it
  /// would show changes: the display value, or the paused or finished flag. Calls come in batches, one
  /// hop to the main actor for everything due at a wake-up; if the main actor falls behind, it gets
  /// the newest snapshot once instead of a backlog.
  ///
  /// - Parameters:
  ///   - countdown: The countdown to run.
  ///   - display: What to show; the engine wakes only when its value changes.
  ///   - delivery: When `onChange` is called: when what the display shows changes (the default), or also
  ///     at every change made to the countdown (see ``SnapshotDelivery``).
  ///   - onChange: Receives each new snapshot.
  ///   - onFinish: Called once when the remaining time reaches zero (at once if it already has), after
  ///     the snapshot that shows it; never for a countdown cancelled before that.
  ///   - isolation: The caller's actor, filled in by the compiler: leave it out. Called on the main
  ///     actor, the engine hands the closures to the main actor's side at once instead of sending them.
  /// - Returns: A handle to pause, retarget or cancel the countdown; the engine lets go of the
  ///   countdown once it is over (see ``CountdownHandle``).
  @inlinable
  @discardableResult
  public func add<Display: CountdownDisplay>(
    _ countdown: Countdown<C.Instant>,
    display: Display,
    delivery: SnapshotDelivery = .whenShownChanges,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) -> CountdownHandle<C> {
    add(
      countdown, target: nil, display: display, delivery: delivery, onChange: onChange, onFinish: onFinish,
      isOnMainActor: Self.isMainActor(isolation))
  }

  /// Adds a countdown to a wall-clock date (converted through the engine's timeline, and moved when the
  /// wall clock changes), with snapshots to `onChange` on the main actor.
  ///
  /// - Throws: `WallClockTimelineError` for a date that is not finite or absurdly far away.
  @inlinable
  @discardableResult
  public func add<Display: CountdownDisplay>(
    until date: Date,
    total: Duration? = nil,
    display: Display,
    delivery: SnapshotDelivery = .whenShownChanges,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) throws -> CountdownHandle<C> {
    let end = try instant(for: date)
    return add(
      Countdown(end: end, total: total), target: date, display: display, delivery: delivery, onChange: onChange,
      onFinish: onFinish, isOnMainActor: Self.isMainActor(isolation))
  }

  /// Whether `isolation` (a caller's `#isolation`) is the main actor.
  @inlinable
  static func isMainActor(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return false }
    return ObjectIdentifier(isolation) == ObjectIdentifier(MainActor.shared)
  }

  /// Adds a countdown that shows nothing and only reports its completion, once, on the main actor.
  @discardableResult
  public func add(_ countdown: Countdown<C.Instant>, onFinish: @escaping @MainActor @Sendable () -> Void)
    -> CountdownHandle<C>
  {
    let reference = addRow(countdown, target: nil, releasesWhenSettled: true) { state in
      state.install(.main(FinishTable.Subscriber(onFinish)), in: 0)
    }
    return CountdownHandle(engine: self, reference: reference)
  }

  /// The snapshots of a countdown as an asynchronous sequence.
  ///
  /// The first snapshot is there at once; then one arrives whenever what it shows changes. A slow
  /// consumer only ever sees the newest snapshot, never a backlog of stale ones. The sequence ends
  /// when the countdown has finished and its display will not change again (with an overtime display,
  /// never), or when the engine shuts down. Cancelling the task that consumes it (or dropping the
  /// sequence) cancels the countdown. Until then the engine runs it even if the app no longer holds
  /// the engine (see ``CountdownEngine``, "Lifetime").
  @inlinable
  public func snapshots<Display: CountdownDisplay>(
    of countdown: Countdown<C.Instant>,
    display: Display
  ) -> AsyncStream<Snapshot<Display.Value>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<Display.Value>.self, bufferingPolicy: .bufferingNewest(1))
    let sink = StreamSink(display: display, origin: origin, continuation: continuation)
    let reference = addRow(countdown, target: nil, releasesWhenSettled: true) { [origin] state in
      let displayClass = state.displayClass(for: display, plan: DisplayPlan.make(for: display), origin: origin)
      return state.install(.stream(sink), in: displayClass)
    }
    continuation.onTermination = { [weak self] _ in self?.cancel(reference) }
    return stream
  }

  /// Adds a countdown, released once it is over, whose snapshots go to `onChange` on the main actor;
  /// returns its handle. Inlinable, so that its display's table is made (and displays compared) in
  /// code compiled for the display, where it is named.
  @inlinable
  func add<Display: CountdownDisplay>(
    _ countdown: Countdown<C.Instant>, target: Date?, display: Display, delivery: SnapshotDelivery,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)?, isOnMainActor: Bool
  ) -> CountdownHandle<C> {
    let plan = DisplayPlan.make(for: display)
    var direct: (table: MainTable, sink: UInt32, serial: UInt32)?
    let reference = addRow(countdown, target: target, releasesWhenSettled: true) { [origin] state in
      let displayClass = state.displayClass(for: display, plan: plan, origin: origin)
      if isOnMainActor, let slot = state.takeNewSlot(of: displayClass, delivery: delivery) {
        direct = (slot.table, slot.sink, slot.serial)
        return slot.binding
      }
      return state.install(
        .main(MainSubscriber(onChange: onChange, onFinish: onFinish)), in: displayClass, delivery: delivery)
    }
    // On the main actor, into a slot its table never had: nothing on its way to the main actor concerns
    // that slot, so installing now is installing as the install event would, without one.
    if let direct, let table = direct.table.typed as? SinkTable<Display, C.Instant> {
      MainActor.assumeIsolated {
        table.install(direct.sink, serial: direct.serial, onChange: onChange, onFinish: onFinish)
      }
    }
    return CountdownHandle(engine: self, reference: reference)
  }

  /// Adds a row for `countdown` bound to the subscriber `subscribe` installs; with
  /// `releasesWhenSettled`, it goes away once it is over: it has finished, its completion was
  /// delivered, and its display will not change again.
  ///
  /// Pre-specialised for the two clocks of the standard library, so that an add does not look up the
  /// type metadata of the engine's state at each step (Benchmarks/README.md has the figures); the app's
  /// other clocks take the generic path.
  @usableFromInline
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
  func addRow(
    _ countdown: Countdown<C.Instant>, target: Date?, releasesWhenSettled: Bool,
    subscribe: (inout EngineState<C>) -> Bindings.Binding
  ) -> RowReference {
    var spec = spec(for: countdown, target: target)
    spec.releasesWhenSettled = releasesWhenSettled
    return mutate { state, now in
      let binding = subscribe(&state)
      let row = state.core.add(spec, binding: binding, at: now, into: &state.effects)
      return RowReference(row: row, generation: state.core.rows[row].generation)
    }
  }

  /// Shows `reference`'s countdown through the display class `displayClass` finds or makes (in code
  /// compiled for the display, whose values are of `valueType`): its main-actor subscriber moves to that
  /// class's table, and the row is bound anew (see ``CountdownHandle/setDisplay(_:)``).
  @usableFromInline
  func setDisplay(
    of reference: RowReference, valueType: Any.Type, displayClass: (inout EngineState<C>) -> UInt32
  ) throws(CountdownHandleError) {
    let result = mutate(reference) { state, row, now -> CountdownHandleError? in
      let head = state.core.rows[row]
      guard head.flags.hasBinding else { return .showsNothing }
      let old = state.core.bindings[head.binding]
      guard !old.isStream, let table = state.table(of: old.displayClass) else { return .showsNothing }
      guard table.valueType == valueType else {
        return .valueTypeMismatch(receives: "\(table.valueType)", shows: "\(valueType)")
      }
      let newClass = displayClass(&state)
      guard newClass != old.displayClass else { return nil }
      let (sink, serial) = state.core.classes.takeSink(of: newClass)
      state.pendingMain.append(
        .move(
          from: SinkKey(displayClass: old.displayClass, sink: old.sink),
          to: SinkKey(displayClass: newClass, sink: sink), serial: serial))
      var binding = Bindings.Binding(displayClass: newClass, sink: sink, isStream: false)
      binding.deliversEveryChange = old.deliversEveryChange
      state.core.bind(row, to: binding, at: now, into: &state.effects)
      return nil
    }
    if let error = result ?? nil { throw error }
  }

  /// Runs `body` on the row of `reference` under the lock, if it is still that countdown (see
  /// ``mutate(_:)``).
  @discardableResult
  func mutate<Result>(_ reference: RowReference, _ body: (inout EngineState<C>, Int, Tick) -> Result) -> Result? {
    mutate { state, now in
      guard state.core.rows.isCurrent(reference.row, generation: reference.generation) else { return nil }
      return body(&state, reference.row, now)
    }
  }

  /// Cancels the countdown of `reference` if it is still that countdown.
  @usableFromInline
  @_specialize(where C == ContinuousClock)
  @_specialize(where C == SuspendingClock)
  func cancel(_ reference: RowReference) {
    mutate(reference) { state, row, _ in state.core.remove(row, into: &state.effects) }
  }
}

/// A row of an engine and the generation it had: names one countdown, never the one that reuses its row.
@usableFromInline
struct RowReference: Hashable, Sendable {
  let row: Int
  let generation: UInt32
}
