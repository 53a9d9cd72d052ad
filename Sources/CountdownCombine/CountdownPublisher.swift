#if canImport(Combine)
  public import Combine
#else
  public import OpenCombine
#endif
public import CountdownKit
import Synchronization

/// A publisher of a countdown's snapshots, driven by a ``CountdownKit/CountdownEngine``.
///
/// Values arrive on the main thread (the engine's main-actor delivery), the first one as soon as the
/// subscriber requests it, then one per change of what the snapshot shows. Demand is honoured: while a
/// subscriber has no demand left, only the newest snapshot is kept for it, never a backlog. The
/// publisher finishes after the snapshot in which the countdown finished, if its display will not
/// change again (an overtime display never finishes). Cancelling the subscription cancels the
/// countdown. Each subscription runs its own countdown.
///
/// On Apple platforms this is Combine; on Linux the same code builds against OpenCombine.
public struct CountdownPublisher<Display: CountdownDisplay, C: Clock>: Publisher, Sendable
where C.Duration == Duration {
  /// The snapshots.
  public typealias Output = CountdownSnapshot<Display.Value, C.Instant>
  /// Never fails.
  public typealias Failure = Never

  /// The engine that drives the countdown.
  let engine: CountdownEngine<C>
  /// The countdown each subscription runs.
  public let countdown: Countdown<C.Instant>
  /// What the snapshots show.
  public let display: Display

  /// A publisher of `countdown` seen through `display`.
  public init(engine: CountdownEngine<C>, countdown: Countdown<C.Instant>, display: Display) {
    self.engine = engine
    self.countdown = countdown
    self.display = display
  }

  /// Attaches `subscriber`.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: CountdownSubscription(publisher: self, subscriber: subscriber))
  }
}

extension CountdownEngine {
  /// A Combine publisher of the snapshots of `countdown` seen through `display`.
  public func publisher<Display: CountdownDisplay>(
    for countdown: Countdown<C.Instant>,
    display: Display
  ) -> CountdownPublisher<Display, C> {
    CountdownPublisher(engine: self, countdown: countdown, display: display)
  }
}

/// One subscriber's countdown. Its state lives on the main actor, where the engine delivers.
final class CountdownSubscription<S: Subscriber, Display: CountdownDisplay, C: Clock>: Subscription, Sendable
where C.Duration == Duration, S.Input == CountdownSnapshot<Display.Value, C.Instant>, S.Failure == Never {
  typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

  private struct MainState {
    var subscriber: S?
    var demand = Subscribers.Demand.none
    var pending: Snapshot?
  }

  private let publisher: CountdownPublisher<Display, C>
  private let handle = Lock<CountdownHandle<C>?>(nil)
  private let started = Atomic<Bool>(false)
  /// Set by `cancel()`: nothing reaches the subscriber afterwards, not even a snapshot it was waiting
  /// for demand to receive.
  private let isCancelled = Atomic<Bool>(false)
  private let main: MainActorBox<MainState>

  init(publisher: CountdownPublisher<Display, C>, subscriber: S) {
    self.publisher = publisher
    self.main = MainActorBox(MainState(subscriber: subscriber))
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    onMain { $0.add(demand) }
    guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
    let handle = publisher.engine.add(publisher.countdown, display: publisher.display) { [weak self] snapshot in
      self?.receive(snapshot)
    }
    self.handle.withLock { $0 = handle }
  }

  func cancel() {
    handle.withLock { current in
      defer { current = nil }
      return current
    }?.cancel()
    isCancelled.store(true, ordering: .releasing)
    started.store(true, ordering: .relaxed)
    onMain { $0.main.value.subscriber = nil }
  }

  @MainActor
  private func add(_ more: Subscribers.Demand) {
    main.value.demand += more
    if let pending = main.value.pending, main.value.demand > .none {
      main.value.pending = nil
      receive(pending)
    }
  }

  @MainActor
  private func receive(_ snapshot: Snapshot) {
    guard !isCancelled.load(ordering: .acquiring), let subscriber = main.value.subscriber else { return }
    guard main.value.demand > .none else {
      main.value.pending = snapshot
      return
    }
    main.value.demand -= 1
    let more = subscriber.receive(snapshot)
    main.value.demand += more
    let settled =
      snapshot.isFinished && !snapshot.isPaused && publisher.display.nextChange(after: snapshot.remaining) == nil
    if settled {
      main.value.subscriber = nil
      handle.withLock { $0 = nil }
      subscriber.receive(completion: .finished)
    }
  }

  /// Runs `work` on the main actor, in a hop (demand and cancellation arrive on any thread; the
  /// subscriber's state lives on the main actor).
  private func onMain(_ work: @escaping @MainActor @Sendable (CountdownSubscription) -> Void) {
    Task { @MainActor in work(self) }
  }
}
