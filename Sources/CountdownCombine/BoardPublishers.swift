#if canImport(Combine)
  public import Combine
#else
  public import OpenCombine
#endif
public import CountdownKit
import Synchronization

extension CountdownBoard {
  /// A Combine publisher of the IDs of rows as they finish, on screen or not, delivered on the main
  /// thread. Reading it subscribes to nothing: each subscription sees the rows that finish after it
  /// subscribed. It never completes (a board that is gone and whose rows have all finished publishes
  /// nothing more).
  public var finishedPublisher: BoardFinishedPublisher<ID> {
    BoardFinishedPublisher(source: { self.finished() })
  }
}

/// Publishes the IDs of finished rows of a ``CountdownKit/CountdownBoard``; see
/// `CountdownBoard.finishedPublisher`.
public struct BoardFinishedPublisher<ID: Hashable & Sendable>: Publisher {
  /// The ID of a row that finished.
  public typealias Output = ID
  /// Never fails.
  public typealias Failure = Never

  let source: @Sendable () -> AsyncStream<ID>

  /// Attaches `subscriber`.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == ID, S.Failure == Never {
    subscriber.receive(subscription: BoardFinishedSubscription(events: source(), subscriber: subscriber))
  }
}

/// Forwards a board's finished events to one subscriber on the main actor, honouring its demand
/// (events beyond the demand wait in order; none is dropped).
final class BoardFinishedSubscription<S: Subscriber, ID: Hashable & Sendable>: Subscription, Sendable
where S.Input == ID, S.Failure == Never {
  private struct MainState {
    var subscriber: S?
    var demand = Subscribers.Demand.none
    var waiting: [ID] = []
  }

  private let main: MainActorBox<MainState>
  private let task = Lock<Task<Void, Never>?>(nil)

  init(events: AsyncStream<ID>, subscriber: S) {
    self.main = MainActorBox(MainState(subscriber: subscriber))
    let forwarder = Task { @MainActor [weak self] in
      for await id in events {
        guard let self else { return }
        self.enqueue(id)
      }
    }
    task.withLock { $0 = forwarder }
  }

  func request(_ demand: Subscribers.Demand) {
    Task { @MainActor in
      self.main.value.demand += demand
      self.flush()
    }
  }

  func cancel() {
    task.withLock { $0 }?.cancel()
    Task { @MainActor in self.main.value.subscriber = nil }
  }

  @MainActor
  private func enqueue(_ id: ID) {
    main.value.waiting.append(id)
    flush()
  }

  @MainActor
  private func flush() {
    while main.value.demand > .none, !main.value.waiting.isEmpty, let subscriber = main.value.subscriber {
      main.value.demand -= 1
      let more = subscriber.receive(main.value.waiting.removeFirst())
      main.value.demand += more
    }
  }
}
