#if canImport(Observation)
  public import Foundation
  public import Observation

  /// An observable countdown to a date that lives somewhere else — a database row, a server stream —
  /// for SwiftUI: it counts to the latest date its source gave, shows nothing while the source has none,
  /// stands still while the source says it is paused, and counts again when a later date arrives after
  /// it finished.
  ///
  /// ```swift
  /// let auction = FollowingCountdownModel(engine: engine, display: .seconds)
  /// auction.follow(endDates)   // any AsyncSequence of Date?: nil when the date was deleted
  /// // In a view's body:
  /// Text(auction.value.map { $0.formatted(.countdown(.digital)) } ?? "No auction")
  /// ```
  ///
  /// The model owns what it follows: the task that reads the sequence (or, through CountdownCombine,
  /// the subscription to a publisher) lives as long as the model, whatever views come and go. Keep the
  /// model where its data lives (an app model, or the `@State` of a view that stays), so that a view
  /// that disappears and comes back reads the live value; a view's `task` would stop reading when the
  /// view disappears. A source that ends or fails leaves the countdown going to the last date it gave.
  /// Following another source, or ``stopFollowing()``, lets go of the one before; releasing the model
  /// lets go of its source and cancels its countdown. A source can also be one you push from, such as a
  /// listener's callback on the main actor: `update(to:)`.
  ///
  /// Like every countdown to a `Date`, it follows the wall clock: when the device's clock is changed, it
  /// still ends when the clock reads the date (and with a reference offset on the engine, when the
  /// server's clock does). Its properties change only when what a view shows changes, as
  /// ``CountdownModel``'s do.
  @MainActor @Observable
  public final class FollowingCountdownModel<Display: CountdownDisplay, C: Clock> where C.Duration == Duration {
    /// What the model publishes.
    public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

    /// What the source last said: a running end date, a frozen time left, or a past end; `nil` before
    /// its first date and after it deleted the date.
    public private(set) var target: StoredCountdown?
    /// The latest snapshot whose value or flags differ from the one before; `nil` while there is no
    /// date.
    public private(set) var snapshot: Snapshot?
    /// The display's value, e.g. whole seconds left; `nil` while there is no date.
    public private(set) var value: Display.Value?
    /// The fraction of the total left (0…1) at the latest visible change; `nil` without a total or a
    /// date.
    public private(set) var progress: Double?
    /// Whether the source says the countdown is paused.
    public private(set) var isPaused = false
    /// Whether no time is left (false while there is no date).
    public private(set) var isFinished = false

    /// The engine that drives the countdown.
    @ObservationIgnored public let engine: CountdownEngine<C>
    /// What a view shows; the model publishes when its value changes.
    @ObservationIgnored public let display: Display
    /// The full length given to countdowns to a plain `Date`, for ``progress``; a ``StoredCountdown``
    /// brings its own.
    @ObservationIgnored public let total: Duration?
    @ObservationIgnored private let onFinish: (@MainActor @Sendable () -> Void)?
    @ObservationIgnored private let relay = SnapshotRelay<Snapshot>()
    /// The countdown on the engine while there is a date; kept after it finishes, so that a later date
    /// makes it count again.
    @ObservationIgnored private var handle: CountdownHandle<C>?
    /// The instant of the latest change the source made: deliveries computed before it show the
    /// countdown as it was and are dropped.
    @ObservationIgnored private var changedAt: C.Instant?
    @ObservationIgnored private var source: FollowedSource?

    /// A model with no date yet, counting through `display` on `engine` once a date arrives.
    ///
    /// - Parameters:
    ///   - engine: The app's engine (one for the app: it drives every countdown).
    ///   - display: What a view shows; the model publishes when its value changes.
    ///   - total: The full length of a countdown to a plain `Date`, for ``progress``.
    ///   - onFinish: Called on the main actor each time the countdown reaches zero: once per date that
    ///     passes while it is followed.
    public init(
      engine: CountdownEngine<C>,
      display: Display,
      total: Duration? = nil,
      onFinish: (@MainActor @Sendable () -> Void)? = nil
    ) {
      self.engine = engine
      self.display = display
      self.total = total
      self.onFinish = onFinish
      relay.receiver = { [weak self] in self?.receive($0) }
    }

    deinit {
      handle?.cancel()
    }

    // MARK: - Sources

    /// Follows `dates` from now on: counts to each date as it arrives; `nil` means the source has no
    /// date (it was deleted), and the model then shows nothing. Dates that are not finite or absurdly
    /// far away are skipped.
    ///
    /// The sequence is read by a task on the main actor that the model owns, until the sequence ends,
    /// fails, the model follows another source or ``stopFollowing()`` is called, or the model goes away.
    /// It need not be `Sendable`: an observation of a database row or Firestore's `snapshots` mapped to
    /// a date will do.
    public func follow<Dates: AsyncSequence>(_ dates: sending Dates) where Dates.Element == Date? {
      follow(dates) { model, date in model.update(to: date) }
    }

    /// Follows `dates` from now on, counting to each as it arrives; see `follow(_:)`.
    public func follow<Dates: AsyncSequence>(_ dates: sending Dates) where Dates.Element == Date {
      follow(dates) { model, date in model.update(to: date) }
    }

    /// Follows `countdowns` from now on: each is what the source says now — running to a date, paused
    /// with the time left, or finished — and `nil` means it has none. See `follow(_:)`.
    public func follow<Countdowns: AsyncSequence>(_ countdowns: sending Countdowns)
    where Countdowns.Element == StoredCountdown? {
      follow(countdowns) { model, countdown in model.update(to: countdown) }
    }

    /// Stops reading the source the model follows; the countdown goes on to the last date it gave.
    public func stopFollowing() {
      source = nil
    }

    /// Counts to `date` from now on, at once: the push form of `follow(_:)`, for a source that
    /// calls you, such as a listener's callback on the main actor. `nil` means there is no date: the
    /// countdown is cancelled and the model shows nothing until the next date. A date that is not finite
    /// or absurdly far away is skipped.
    public func update(to date: Date?) {
      guard let date else { return update(to: nil as StoredCountdown?) }
      guard let target = try? StoredCountdown(end: date, total: total) else { return }
      update(to: target)
    }

    /// Counts as `countdown` says from now on, at once: running to its end date, paused with its time
    /// left, or finished; `nil` means there is none. See `update(to:)`.
    public func update(to countdown: StoredCountdown?) {
      if target != countdown { target = countdown }
      guard let countdown else {
        handle?.cancel()
        handle = nil
        changedAt = nil
        clear()
        return
      }
      let now: C.Instant
      let counting: Countdown<C.Instant>
      if let handle, let replaced = engine.replaceFollowed(handle, with: countdown) {
        (counting, now) = replaced
      } else {
        let relay = relay
        let added = engine.addFollowed(
          countdown, display: display, onChange: { relay.deliver($0) }, onFinish: onFinish)
        (handle, counting, now) = added
      }
      changedAt = now
      show(counting.snapshot(at: now, display: display))
    }

    /// Lets the model own `source` (what it follows), letting go of the one before: for
    /// CountdownCombine's publishers.
    package func follow(_ source: FollowedSource) {
      self.source = source
    }

    /// Reads `source` in a task on the main actor that the model owns, applying each element.
    private func follow<Source: AsyncSequence>(
      _ source: sending Source, _ apply: @escaping @MainActor (FollowingCountdownModel, Source.Element) -> Void
    ) {
      let reader = Task { [weak self] in
        var iterator = source.makeAsyncIterator()
        // A source that fails ends like one that finishes: the countdown goes on to its last date.
        while let element = try? await iterator.next(isolation: #isolation) {
          guard let self else { return }
          apply(self, element)
        }
      }
      self.source = FollowedSource(task: reader)
    }

    // MARK: - Publishing

    /// Hands the model a snapshot as the engine would: for tests of what it publishes.
    package func _receive(_ snapshot: Snapshot) { receive(snapshot) }

    /// A snapshot from the engine: shown unless it was computed before the source's latest change.
    private func receive(_ new: Snapshot) {
      guard handle != nil else { return }
      if let changedAt, new.instant < changedAt { return }
      show(new)
    }

    /// Publishes `new` if it looks different, touching only the properties that change.
    private func show(_ new: Snapshot) {
      guard new.looksDifferent(from: snapshot) else { return }
      snapshot = new
      if value != new.value { value = new.value }
      if progress != new.progress { progress = new.progress }
      if isPaused != new.isPaused { isPaused = new.isPaused }
      if isFinished != new.isFinished { isFinished = new.isFinished }
    }

    /// Shows that there is no date.
    private func clear() {
      if snapshot != nil { snapshot = nil }
      if value != nil { value = nil }
      if progress != nil { progress = nil }
      if isPaused { isPaused = false }
      if isFinished { isFinished = false }
    }
  }
#endif
