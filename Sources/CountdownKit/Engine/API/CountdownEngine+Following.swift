public import Foundation

extension CountdownEngine {
  /// The snapshots of a countdown that always counts to the latest date `ends` gave.
  ///
  /// This is how a date that lives in a database or arrives from a server drives a countdown: pass
  /// the observation of that date. The source is read once, by one task; each new date retargets the
  /// countdown at once (switch-to-latest). Dates that are not finite or absurdly far away are skipped.
  ///
  /// While the source goes on, so does the sequence: a countdown that reached zero counts again when a
  /// later date arrives (a window that was closed and then extended). When the source ends or
  /// throws, the countdown goes on to the last date it gave, and the sequence then ends like
  /// ``snapshots(of:display:)``: once the countdown has finished and its display will not change
  /// again. A source that ends without giving a valid date ends the sequence at once. Cancelling the
  /// consumer cancels the countdown and stops reading the source. While it reads its source, the
  /// sequence keeps its engine, even one the app no longer holds.
  ///
  /// - Parameters:
  ///   - ends: The end dates, newest last.
  ///   - total: The full length, for progress.
  ///   - display: What to show.
  @inlinable
  public func snapshots<Ends: AsyncSequence & Sendable, Display: CountdownDisplay>(
    following ends: Ends,
    total: Duration? = nil,
    display: Display
  ) -> AsyncStream<Snapshot<Display.Value>> where Ends.Element == Date {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<Display.Value>.self, bufferingPolicy: .bufferingNewest(1))
    let sink = StreamSink(display: display, origin: origin, continuation: continuation)
    let current = Lock<RowReference?>(nil)
    // The reader holds the engine while it reads: a later date may make the countdown count again.
    let reader = Task { [engine = self] in
      var started = false
      do {
        for try await date in ends {
          if let reference = current.withLock({ $0 }) {
            engine.retarget(reference, to: date)
          } else if !started, let end = try? engine.instant(for: date) {
            started = true
            let origin = engine.origin
            let reference = engine.addRow(Countdown(end: end, total: total), target: date, releasesWhenSettled: false) {
              state in
              let displayClass = state.displayClass(
                for: display, plan: DisplayPlan.make(for: display), origin: origin)
              return state.install(.stream(sink), in: displayClass)
            }
            current.withLock { $0 = reference }
            if Task.isCancelled { engine.cancel(reference) }
          }
        }
      } catch {
        // The source failed: keep counting to the last date it gave.
      }
      // No date will move the end any more: the sequence can end once the countdown has settled.
      if let reference = current.withLock({ $0 }) {
        engine.releaseWhenSettled(reference)
      } else if !started {
        continuation.finish()
      }
    }
    continuation.onTermination = { [weak self] _ in
      reader.cancel()
      if let reference = current.withLock({ current in
        defer { current = nil }; return current
      }) {
        self?.cancel(reference)
      }
    }
    return stream
  }

  /// Counts `reference`'s countdown to `date`; invalid dates are skipped.
  @usableFromInline
  func retarget(_ reference: RowReference, to date: Date) {
    mutate(reference) { state, row, now in
      guard let end = try? state.timeline.instant(for: date) else { return }
      let change = EngineCore.Change.retarget(end: tick(end: end), target: date.timeIntervalSinceReferenceDate)
      state.core.change(row, change, at: now, into: &state.effects)
    }
  }

  /// Releases `reference`'s countdown once it has settled.
  @usableFromInline
  func releaseWhenSettled(_ reference: RowReference) {
    mutate(reference) { state, row, now in state.core.releaseWhenSettled(row, at: now, into: &state.effects) }
  }
}

// The countdown of a `FollowingCountdownModel`: one row per model while the source has a date, set anew
// at each of its changes.

extension CountdownEngine {
  /// Adds a row counting `target` for a ``FollowingCountdownModel``, with a main-actor subscriber. The
  /// target is converted through the timeline under the lock (a wall-clock change cannot fall between
  /// the conversion and the row); the row follows its end date while it runs and is kept after it
  /// settles, so that a later date makes it count again. Returns its handle and the countdown as added,
  /// at the instant of the add.
  func addFollowed<Display: CountdownDisplay>(
    _ target: StoredCountdown, display: Display,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) -> (CountdownHandle<C>, Countdown<C.Instant>, C.Instant) {
    let plan = DisplayPlan.make(for: display)
    let subscriber = MainSubscriber(onChange: onChange, onFinish: onFinish)
    let (reference, countdown, now) = mutate { state, now in
      let (spec, countdown) = followedRow(target, on: state.timeline, at: now)
      let displayClass = state.displayClass(for: display, plan: plan, origin: origin)
      let binding = state.install(.main(subscriber), in: displayClass)
      let row = state.core.add(spec, binding: binding, at: now, into: &state.effects)
      return (RowReference(row: row, generation: state.core.rows[row].generation), countdown, instant(now))
    }
    return (CountdownHandle(engine: self, reference: reference), countdown, now)
  }

  /// Sets `handle`'s countdown to `target` (converted as ``addFollowed(_:display:onChange:onFinish:)``
  /// does): end, pause, total and date anew, the subscriber and the completion's state kept (a
  /// completion that fired is armed again by an end in the future). Returns the countdown as set, at the
  /// instant of the change, or `nil` when the countdown is gone.
  func replaceFollowed(
    _ handle: CountdownHandle<C>, with target: StoredCountdown
  ) -> (Countdown<C.Instant>, C.Instant)? {
    mutate(handle.reference) { state, row, now in
      let (spec, countdown) = followedRow(target, on: state.timeline, at: now)
      state.core.change(row, .replace(spec), at: now, into: &state.effects)
      return (countdown, instant(now))
    }
  }

  /// `target` as a countdown on this engine's clock at `now`, and the row that counts it: following its
  /// end date while it runs, kept once it settles.
  private func followedRow(
    _ target: StoredCountdown, on timeline: WallClockTimeline<C.Instant>, at now: Tick
  ) -> (EngineCore.RowSpec, Countdown<C.Instant>) {
    let countdown = target.restored(at: instant(now), on: timeline)
    var date: Date?
    if case .running(let end) = target.state { date = end }
    var spec = spec(for: countdown, target: date)
    spec.releasesWhenSettled = false
    return (spec, countdown)
  }
}
