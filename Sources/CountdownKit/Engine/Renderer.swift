import Synchronization

/// Work the engine hands out after it has let go of its lock.
@usableFromInline
package enum Delivery: Sendable {
  /// Runs on the main actor; all of one wake-up's main-actor work goes in one hop.
  case mainActor(@MainActor @Sendable () -> Void)
  /// Runs at once, still under the engine's lock so that a stream sees its values in order: must not
  /// call back into the engine (yielding to an `AsyncStream` is fine).
  case immediate(@Sendable () -> Void)
  /// Runs once the engine's lock is released (finishing a stream, whose termination handler may call
  /// back into the engine).
  case afterUnlock(@Sendable () -> Void)
}

/// Turns a countdown into snapshots for one subscriber; holds the last value it delivered.
///
/// Renderers are called under the engine's lock only.
package protocol Renderer: AnyObject, Sendable {
  /// Renders `countdown` at `now`.
  ///
  /// - Returns: the delivery to make when what a subscriber would see changed (or `force` is set),
  ///   and the display's next change after the current remaining time.
  func render(_ countdown: Countdown<EngineTick>, at now: EngineTick, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  )

  /// Called once when the renderer is detached or its countdown removed.
  func close() -> Delivery?
}

/// The engine's renderer: two closures built by ``rendering(_:origin:into:delivery:dropsPendingOnClose:close:)``.
///
/// The closures are made in inlinable code, so that they are compiled in the module that knows the
/// display and the clock (the app's): rendering a change then runs specialised code, with no generic
/// metadata looked up at run time.
@usableFromInline
package final class ClosureRenderer: Renderer {
  @usableFromInline let renderer:
    @Sendable (Countdown<EngineTick>, EngineTick, Bool) -> (delivery: Delivery?, nextChange: Duration?)
  @usableFromInline let closer: @Sendable () -> Delivery?

  @inlinable
  init(
    render:
      @escaping @Sendable (Countdown<EngineTick>, EngineTick, Bool) -> (
        delivery: Delivery?, nextChange: Duration?
      ),
    close: @escaping @Sendable () -> Delivery?
  ) {
    self.renderer = render
    self.closer = close
  }

  package func render(_ countdown: Countdown<EngineTick>, at now: EngineTick, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  ) {
    renderer(countdown, now, force)
  }

  package func close() -> Delivery? {
    closer()
  }
}

extension ClosureRenderer {
  /// A renderer whose snapshots go to `onChange` on the main actor.
  ///
  /// `origin` is the engine's origin, to turn ticks back into the clock's instants.
  @inlinable
  package static func rendering<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ display: Display,
    origin: Instant,
    onChange: @escaping @MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void
  ) -> ClosureRenderer where Instant.Duration == Duration {
    let box = RenderBox<Display.Value, Instant>()
    return rendering(
      display, origin: origin, into: box,
      delivery: .mainActor { if let snapshot = box.take() { onChange(snapshot) } },
      dropsPendingOnClose: true, close: nil)
  }

  /// A renderer whose snapshots go to an async stream, finished when the renderer closes.
  @inlinable
  package static func rendering<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ display: Display,
    origin: Instant,
    stream continuation: AsyncStream<CountdownSnapshot<Display.Value, Instant>>.Continuation
  ) -> ClosureRenderer where Instant.Duration == Duration {
    let box = RenderBox<Display.Value, Instant>()
    return rendering(
      display, origin: origin, into: box,
      delivery: .immediate { if let snapshot = box.take() { continuation.yield(snapshot) } },
      dropsPendingOnClose: false, close: .afterUnlock { continuation.finish() })
  }

  /// A renderer that puts each changed snapshot in `box` and hands out `delivery` (built once, for
  /// every change) to pass it on.
  ///
  /// `dropsPendingOnClose`: whether closing drops a snapshot not delivered yet. A main-actor
  /// subscriber's is dropped (nothing is delivered after `cancel()` returned); a stream's is not,
  /// since its delivery runs under the engine's lock before the stream is finished, so that the final
  /// snapshot of a stream that ends on its own is not lost.
  ///
  /// A subscriber is told when what it would see changes: the value, or the paused or finished flag.
  /// If the main actor falls behind, `delivery` runs once per change but finds only the newest
  /// snapshot: a late subscriber catches up at once instead of working through stale values.
  @inlinable @inline(__always)
  package static func rendering<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ display: Display,
    origin: Instant,
    into box: RenderBox<Display.Value, Instant>,
    delivery: Delivery,
    dropsPendingOnClose: Bool,
    close: Delivery?
  ) -> ClosureRenderer where Instant.Duration == Duration {
    ClosureRenderer(
      render: { countdown, now, force in
        let remaining = countdown.remaining(at: now)
        let isPaused = countdown.isPaused
        let seen = RenderedState(
          value: display.value(remaining: remaining), isPaused: isPaused, isFinished: remaining <= .zero)
        let next = isPaused ? nil : display.nextChange(after: remaining)
        let changed = box.offer(seen, force: force) {
          CountdownSnapshot(
            value: seen.value, remaining: remaining, progress: countdown.progress(at: now), isPaused: isPaused,
            isFinished: seen.isFinished, instant: origin.advanced(by: now.offset))
        }
        return (changed ? delivery : nil, next)
      },
      close: {
        if dropsPendingOnClose { box.close() }
        return close
      })
  }
}

/// What a subscriber last saw, to tell whether a new snapshot is worth delivering.
@usableFromInline
struct RenderedState<Value: Equatable & Sendable>: Equatable, Sendable {
  @usableFromInline var value: Value
  @usableFromInline var isPaused: Bool
  @usableFromInline var isFinished: Bool

  @inlinable
  init(value: Value, isPaused: Bool, isFinished: Bool) {
    self.value = value
    self.isPaused = isPaused
    self.isFinished = isFinished
  }
}

/// One subscriber's rendering state: what it last saw, and the newest snapshot not yet handed to it,
/// between the engine's lock (where it is rendered) and the main actor or stream (where it is
/// delivered).
///
/// Closed when its countdown is removed or its subscription ends: a delivery still queued then finds
/// nothing, so nothing is delivered after `cancel()` has returned. Its lock is only ever contended by
/// one delivery on its way out.
@usableFromInline
package final class RenderBox<Value: Equatable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Value, Instant>

  @usableFromInline struct State: Sendable {
    @usableFromInline var last: RenderedState<Value>?
    @usableFromInline var pending: Snapshot?
    @usableFromInline var isOpen = true

    @inlinable init() {}
  }

  @usableFromInline let state = Lock(State())

  @inlinable
  package init() {}

  /// Records `seen` and, if it differs from what was last seen (or `force` is set), makes it the
  /// pending snapshot.
  ///
  /// - Returns: whether a delivery is needed.
  @inlinable @inline(__always)
  func offer(_ seen: RenderedState<Value>, force: Bool, snapshot: () -> Snapshot) -> Bool {
    state.withLock { state in
      guard force || state.last != seen else { return false }
      state.last = seen
      if state.isOpen { state.pending = snapshot() }
      return true
    }
  }

  /// Takes the pending snapshot, if there is one.
  @inlinable @inline(__always)
  func take() -> Snapshot? {
    state.withLock { state in
      defer { state.pending = nil }
      return state.pending
    }
  }

  /// Drops the pending snapshot and every later one.
  @inlinable @inline(__always)
  func close() {
    state.withLock { state in
      state.pending = nil
      state.isOpen = false
    }
  }
}
