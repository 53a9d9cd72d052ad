import Synchronization

/// Work the engine hands out after it has let go of its lock.
@usableFromInline
package enum Delivery: Sendable {
  /// Runs on the main actor; the work of one chunk of a wake-up goes in one hop (see the engine's mailbox).
  case mainActor(@MainActor @Sendable () -> Void)
  /// Runs at once, still under the engine's lock so that a stream sees its values in order: must not
  /// call back into the engine (yielding to an `AsyncStream` is fine).
  case immediate(@Sendable () -> Void)
  /// Runs once the engine's lock is released (finishing a stream, whose termination handler may call
  /// back into the engine).
  case afterUnlock(@Sendable () -> Void)
}

/// Turns a countdown into snapshots for one subscriber: what the scheduler calls, under the engine's
/// lock, to render a countdown and, once, to close the subscription.
///
/// One closure, made in inlinable code (``rendering(_:origin:onChange:)``) so that it is compiled in
/// the module that knows the display and the clock (the app's): rendering a change then runs
/// specialised code, with no generic metadata looked up at run time. It captures nothing but its
/// ``RenderBox``, so that the box is its context: a change touches one object.
@usableFromInline
package struct Renderer: Sendable {
  /// What the scheduler asks of a renderer.
  @usableFromInline
  package enum Call {
    /// Render `countdown` at `now`; `force`: deliver even if nothing visible changed.
    case render(Countdown<EngineTick>, at: EngineTick, force: Bool)
    /// The renderer is detached or its countdown removed.
    case close
  }

  @usableFromInline let call: @Sendable (Call) -> (delivery: Delivery?, nextChange: Duration?)
  /// Tells two renderers apart.
  @usableFromInline package let identity: ObjectIdentifier

  @inlinable
  package init(
    identity: ObjectIdentifier, call: @escaping @Sendable (Call) -> (delivery: Delivery?, nextChange: Duration?)
  ) {
    self.identity = identity
    self.call = call
  }

  /// Renders `countdown` at `now`.
  ///
  /// - Returns: the delivery to make when what a subscriber would see changed (or `force` is set),
  ///   and the display's next change after the current remaining time.
  package func render(_ countdown: Countdown<EngineTick>, at now: EngineTick, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  ) {
    call(.render(countdown, at: now, force: force))
  }

  /// Called once when the renderer is detached or its countdown removed.
  package func close() -> Delivery? {
    call(.close).delivery
  }
}

extension Renderer {
  /// A renderer whose snapshots go to `onChange` on the main actor.
  ///
  /// `origin` is the engine's origin, to turn ticks back into the clock's instants.
  @inlinable
  package static func rendering<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ display: Display,
    origin: Instant,
    onChange: @escaping @MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void
  ) -> Renderer where Instant.Duration == Duration {
    let box = RenderBox(display: display, origin: origin, onChange: onChange)
    return Renderer(identity: ObjectIdentifier(box)) { box.handle($0) }
  }

  /// A renderer whose snapshots go to an async stream, finished when the renderer closes.
  @inlinable
  package static func rendering<Display: CountdownDisplay, Instant: InstantProtocol>(
    _ display: Display,
    origin: Instant,
    stream continuation: AsyncStream<CountdownSnapshot<Display.Value, Instant>>.Continuation
  ) -> Renderer where Instant.Duration == Duration {
    let box = RenderBox(display: display, origin: origin, continuation: continuation)
    return Renderer(identity: ObjectIdentifier(box)) { box.handle($0) }
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

/// One subscriber: its display, where its snapshots go, what it last saw, and the newest snapshot not
/// yet handed to it, between the engine's lock (where it is rendered) and the main actor or stream
/// (where it is delivered).
///
/// A subscriber is told when what it would see changes: the value, or the paused or finished flag.
/// If the main actor falls behind, each queued delivery finds only the newest snapshot: a late
/// subscriber catches up at once instead of working through stale values. Closing a main-actor
/// subscriber drops its pending snapshot, so nothing is delivered after `cancel()` has returned; a
/// stream's is kept (its delivery runs under the engine's lock, before the stream is finished) so that
/// the final snapshot of a stream that ends on its own is not lost. The lock is only ever contended by
/// one delivery on its way out.
@usableFromInline
package final class RenderBox<Display: CountdownDisplay, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>

  @usableFromInline struct State: Sendable {
    @usableFromInline var last: RenderedState<Display.Value>?
    @usableFromInline var pending: Snapshot?
    @usableFromInline var isOpen = true

    @inlinable init() {}
  }

  @usableFromInline let display: Display
  @usableFromInline let origin: Instant
  // Where snapshots go: one of the two. (Not an enum: `AsyncStream.Continuation` is resilient, and
  // switching over an enum with a resilient payload is a runtime call on every change.)
  @usableFromInline let onChange: (@MainActor @Sendable (Snapshot) -> Void)?
  @usableFromInline let continuation: AsyncStream<Snapshot>.Continuation?
  @usableFromInline let isStream: Bool
  @usableFromInline let state = Lock(State())

  /// A subscriber on the main actor.
  @inlinable
  init(display: Display, origin: Instant, onChange: @escaping @MainActor @Sendable (Snapshot) -> Void) {
    self.display = display
    self.origin = origin
    self.onChange = onChange
    self.continuation = nil
    self.isStream = false
  }

  /// A stream's subscriber.
  @inlinable
  init(display: Display, origin: Instant, continuation: AsyncStream<Snapshot>.Continuation) {
    self.display = display
    self.origin = origin
    self.onChange = nil
    self.continuation = continuation
    self.isStream = true
  }

  @inlinable @inline(__always)
  func handle(_ call: Renderer.Call) -> (delivery: Delivery?, nextChange: Duration?) {
    switch call {
    case .render(let countdown, let now, let force): render(countdown, at: now, force: force)
    case .close: (close(), nil)
    }
  }

  @inlinable @inline(__always)
  func render(_ countdown: Countdown<EngineTick>, at now: EngineTick, force: Bool) -> (
    delivery: Delivery?, nextChange: Duration?
  ) {
    let remaining = countdown.remaining(at: now)
    let isPaused = countdown.isPaused
    let seen = RenderedState(
      value: display.value(remaining: remaining), isPaused: isPaused, isFinished: remaining <= .zero)
    let next = isPaused ? nil : display.nextChange(after: remaining)
    let origin = origin
    let changed = state.withLock { state in
      guard force || state.last != seen else { return false }
      state.last = seen
      if state.isOpen {
        state.pending = CountdownSnapshot(
          value: seen.value, remaining: remaining, progress: countdown.progress(at: now), isPaused: isPaused,
          isFinished: seen.isFinished, instant: origin.advanced(by: now.offset))
      }
      return true
    }
    guard changed else { return (nil, next) }
    return isStream ? (.immediate { self.yieldPending() }, next) : (.mainActor { self.deliver() }, next)
  }

  /// Hands the pending snapshot, if any, to the main-actor subscriber.
  @MainActor @inlinable
  func deliver() {
    guard let onChange, let snapshot = take() else { return }
    onChange(snapshot)
  }

  /// Hands the pending snapshot, if any, to the stream.
  @inlinable
  func yieldPending() {
    guard let continuation, let snapshot = take() else { return }
    continuation.yield(snapshot)
  }

  @inlinable @inline(__always)
  func take() -> Snapshot? {
    state.withLock { state in
      defer { state.pending = nil }
      return state.pending
    }
  }

  @inlinable
  func close() -> Delivery? {
    if let continuation { return .afterUnlock { continuation.finish() } }
    state.withLock { state in
      state.pending = nil
      state.isOpen = false
    }
    return nil
  }
}
