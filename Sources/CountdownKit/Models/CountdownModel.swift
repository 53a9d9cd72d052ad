#if canImport(Observation)
  public import Foundation
  public import Observation

  /// An observable countdown for SwiftUI: what a view shows, published once per visible change.
  ///
  /// The model adds its countdown to an engine and keeps the latest snapshot. Its properties change
  /// only when what a view would show changes (the display value, or the paused or finished flag), and
  /// each changes only when its own value does: a view that reads ``value`` is invalidated once per
  /// second for a seconds display, never per tick, and a view that reads only ``isPaused`` only when
  /// the countdown is paused or resumed.
  ///
  /// ```swift
  /// let countdown = Countdown(duration: .seconds(8), startingAt: engine.now)
  /// let turn = CountdownModel(engine: engine, countdown: countdown, display: .seconds)
  /// // In a view's body:
  /// Text(turn.value ?? .zero, format: .countdown(.digital))
  /// ```
  ///
  /// Keep it in a view's `@State` (Getting Started has a whole view).
  ///
  /// The countdown lives as long as the model: releasing the model cancels it (and its completion), and
  /// so does `handle.cancel()` while you keep it. Change it through its ``handle``. Reading a property
  /// subscribes to nothing: the model is the one subscription.
  @MainActor @Observable
  public final class CountdownModel<Display: CountdownDisplay, C: Clock> where C.Duration == Duration {
    /// What the model publishes.
    public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

    /// The latest snapshot whose value or flags differ from the one before; `nil` until the first.
    public private(set) var snapshot: Snapshot?
    /// The display's value, e.g. whole seconds left; `nil` until the first snapshot.
    public private(set) var value: Display.Value?
    /// The fraction of the total left (0…1) at the latest visible change; `nil` without a total.
    public private(set) var progress: Double?
    /// Whether the countdown is paused.
    public private(set) var isPaused = false
    /// Whether no time is left.
    public private(set) var isFinished = false

    /// The countdown's handle: pause, resume, retarget, extend or cancel it, or show it through
    /// another display. The model shows every change made through it.
    @ObservationIgnored public let handle: CountdownHandle<C>

    /// A model of `countdown` on `engine`, shown through `display`.
    ///
    /// The first snapshot is computed at once, so ``value`` is there before the first delivery.
    ///
    /// - Parameters:
    ///   - engine: The app's engine (one for the app: it drives every countdown).
    ///   - countdown: The countdown to run.
    ///   - display: What a view shows; the model publishes when its value changes.
    ///   - onFinish: Called once on the main actor when the countdown reaches zero.
    public init(
      engine: CountdownEngine<C>,
      countdown: Countdown<C.Instant>,
      display: Display,
      onFinish: (@MainActor @Sendable () -> Void)? = nil
    ) {
      let relay = SnapshotRelay<Snapshot>()
      handle = engine.add(countdown, display: display, onChange: { relay.deliver($0) }, onFinish: onFinish)
      relay.receiver = { [weak self] in self?.show($0) }
      show(countdown.snapshot(at: engine.now, display: display))
    }

    /// A model of a countdown to `date` on `engine` (converted through the engine's timeline, and moved
    /// when the wall clock changes), shown through `display`.
    ///
    /// - Throws: `WallClockTimelineError` for a date that is not finite or absurdly far away.
    public init(
      engine: CountdownEngine<C>,
      until date: Date,
      total: Duration? = nil,
      display: Display,
      onFinish: (@MainActor @Sendable () -> Void)? = nil
    ) throws {
      let relay = SnapshotRelay<Snapshot>()
      handle = try engine.add(
        until: date, total: total, display: display, onChange: { relay.deliver($0) }, onFinish: onFinish)
      relay.receiver = { [weak self] in self?.show($0) }
      if let countdown = handle.countdown { show(countdown.snapshot(at: engine.now, display: display)) }
    }

    deinit {
      handle.cancel()
    }

    /// Hands the model a snapshot as the engine would: for tests of what it publishes.
    package func _receive(_ snapshot: Snapshot) { show(snapshot) }

    /// Publishes `new` if it looks different, touching only the properties that change.
    private func show(_ new: Snapshot) {
      guard new.looksDifferent(from: snapshot) else { return }
      snapshot = new
      if value != new.value { value = new.value }
      if progress != new.progress { progress = new.progress }
      if isPaused != new.isPaused { isPaused = new.isPaused }
      if isFinished != new.isFinished { isFinished = new.isFinished }
    }
  }
#endif
