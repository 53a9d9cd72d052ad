/// Deliveries that do not go to the main actor (snapshots to streams, finished rows to boards'
/// sequences), made in the order the engine posted them, off its lock.
///
/// The engine posts under its lock; after releasing it, the posting thread delivers, unless another
/// thread is delivering already, in which case that one also delivers what was just posted. One
/// deliverer at a time keeps each stream's snapshots in order; no lock is held while a delivery runs,
/// so a stream's termination handler may call back into the engine.
final class Outbox: Sendable {
  /// One delivery.
  enum Item: Sendable {
    /// A change for a stream (or, with nil, the end of it), computed at a tick.
    case stream(StreamSink, Effects.Change?, Tick)
    case call(@Sendable () -> Void)

    func run() {
      switch self {
      case .stream(let sink, let change, let tick): sink.deliver(change, tick)
      case .call(let work): work()
      }
    }
  }

  private struct State {
    var items: [Item] = []
    var isDelivering = false
  }

  private let state = Lock(State(), level: .posting)

  init() {}

  /// Adds deliveries, in order; called under the engine's lock.
  func post(_ items: [Item]) {
    guard !items.isEmpty else { return }
    state.withLock { $0.items.append(contentsOf: items) }
  }

  /// Delivers what was posted, unless another thread is already doing it.
  func deliver() {
    var batch = state.withLock { state -> [Item] in
      guard !state.isDelivering, !state.items.isEmpty else { return [] }
      state.isDelivering = true
      defer { state.items = [] }
      return state.items
    }
    while !batch.isEmpty {
      for item in batch { item.run() }
      batch = state.withLock { state in
        defer { state.items = [] }
        if state.items.isEmpty { state.isDelivering = false }
        return state.items
      }
    }
  }
}
