public import Foundation

extension CountdownEngine {
  /// Adds a countdown whose snapshots go to `onChange` on the main actor.
  ///
  /// `onChange` is called soon after this returns with the current snapshot, then whenever what it
  /// would show changes: the display value, or the paused or finished flag. Calls come in batches, one
  /// hop to the main actor for up to 1,024 changes; if the main actor falls behind, it gets the newest
  /// snapshot once instead of a backlog.
  ///
  /// - Parameters:
  ///   - countdown: The countdown to run.
  ///   - display: What to show; the engine wakes only when its value changes.
  ///   - onChange: Receives each new snapshot.
  ///   - onFinish: Called once when the remaining time reaches zero (at once if it already has), never
  ///     for a countdown cancelled before that.
  /// - Returns: A handle to pause, retarget or cancel the countdown.
  @inlinable
  @discardableResult
  public func add<Display: CountdownDisplay>(
    _ countdown: Countdown<C.Instant>,
    display: Display,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)? = nil
  ) -> CountdownHandle<C> {
    add(
      countdown, target: nil, renderer: .rendering(display, origin: origin, onChange: onChange),
      period: display.period, onFinish: Self.finishing(onFinish))
  }

  /// Adds a countdown to a wall-clock date (converted through the engine's timeline, and moved when the
  /// wall clock changes), with snapshots to `onChange` on the main actor.
  ///
  /// - Throws: `TimelineError` for a date that is not finite or absurdly far away.
  @inlinable
  @discardableResult
  public func add<Display: CountdownDisplay>(
    until date: Date,
    total: Duration? = nil,
    display: Display,
    onChange: @escaping @MainActor @Sendable (Snapshot<Display.Value>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)? = nil
  ) throws -> CountdownHandle<C> {
    let end = try instant(for: date)
    return add(
      Countdown(end: end, total: total), target: date,
      renderer: .rendering(display, origin: origin, onChange: onChange),
      period: display.period, onFinish: Self.finishing(onFinish))
  }

  /// Adds a countdown that shows nothing and only reports its completion, once, on the main actor.
  @discardableResult
  public func add(_ countdown: Countdown<C.Instant>, onFinish: @escaping @MainActor @Sendable () -> Void)
    -> CountdownHandle<C>
  {
    let id = mutate { state, now in
      state.add(countdown, renderer: nil, onFinish: Self.finishing(onFinish), at: now)
    }
    return CountdownHandle(engine: self, id: id)
  }

  /// The snapshots of a countdown as an asynchronous sequence.
  ///
  /// The first snapshot is there at once; then one arrives whenever what it shows changes. A slow
  /// consumer only ever sees the newest snapshot, never a backlog of stale ones. The sequence ends
  /// when the countdown has finished and its display will not change again (with an overtime display,
  /// never), or when the engine shuts down. Cancelling the task that consumes it (or dropping the
  /// sequence) cancels the countdown.
  @inlinable
  public func snapshots<Display: CountdownDisplay>(
    of countdown: Countdown<C.Instant>,
    display: Display
  ) -> AsyncStream<Snapshot<Display.Value>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<Display.Value>.self, bufferingPolicy: .bufferingNewest(1))
    let handle = add(
      countdown, target: nil, renderer: .rendering(display, origin: origin, stream: continuation),
      period: display.period, onFinish: nil, removesWhenSettled: true)
    continuation.onTermination = { _ in handle.cancel() }
    return stream
  }

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
  /// consumer cancels the countdown and stops reading the source.
  ///
  /// - Parameters:
  ///   - ends: The end dates, newest last.
  ///   - total: The full length, for progress.
  ///   - display: What to show.
  public func snapshots<Ends: AsyncSequence & Sendable, Display: CountdownDisplay>(
    following ends: Ends,
    total: Duration? = nil,
    display: Display
  ) -> AsyncStream<Snapshot<Display.Value>> where Ends.Element == Date {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<Display.Value>.self, bufferingPolicy: .bufferingNewest(1))
    let current = HandleBox<C>()
    let reader = Task { [weak self] in
      var started = false
      do {
        for try await date in ends {
          guard let engine = self else { break }
          if let handle = current.handle {
            try? handle.retarget(to: date)
          } else if !started, let end = try? engine.instant(for: date) {
            started = true
            current.handle = engine.add(
              Countdown(end: end, total: total), target: date,
              renderer: .rendering(display, origin: engine.origin, stream: continuation), period: display.period,
              onFinish: nil, removesWhenSettled: false)
            if Task.isCancelled { current.take()?.cancel() }
          }
        }
      } catch {
        // The source failed: keep counting to the last date it gave.
      }
      // No date will move the end any more: the sequence can end once the countdown has settled.
      if started { current.handle?.removeWhenSettled() } else { continuation.finish() }
    }
    continuation.onTermination = { _ in
      reader.cancel()
      current.take()?.cancel()
    }
    return stream
  }

  /// The completion work that calls `onFinish` on the main actor.
  @usableFromInline
  static func finishing(_ onFinish: (@MainActor @Sendable () -> Void)?) -> FinishWork? {
    guard let onFinish else { return nil }
    return { @Sendable in [.mainActor(onFinish)] }
  }

  /// Adds a countdown rendered by `renderer`, whose display has `period`.
  @usableFromInline
  func add(
    _ countdown: Countdown<C.Instant>,
    target: Date?,
    renderer: Renderer,
    period: Duration?,
    onFinish: FinishWork?,
    removesWhenSettled: Bool = false
  ) -> CountdownHandle<C> {
    let id = mutate { state, now in
      state.add(
        countdown, target: target, renderer: renderer, tolerance: state.scheduler.tolerance(forPeriod: period),
        onFinish: onFinish, removesWhenSettled: removesWhenSettled, at: now)
    }
    return CountdownHandle(engine: self, id: id)
  }
}

/// The handle of a followed countdown, shared by the task reading the source and the termination handler.
final class HandleBox<C: Clock>: Sendable where C.Duration == Duration {
  private let storage = Lock<CountdownHandle<C>?>(nil)

  var handle: CountdownHandle<C>? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }

  func take() -> CountdownHandle<C>? {
    storage.withLock { handle in
      defer { handle = nil }
      return handle
    }
  }
}
