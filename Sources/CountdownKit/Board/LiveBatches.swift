/// Where the changed rows of a board that keeps every row's value go: to its `onChanges` handlers on the
/// main actor, once per wake-up, and to its `changes()` sequences off it.
///
/// The engine posts each wake-up's rows under its lock; what has not been delivered yet is merged, so
/// that a main actor (or a sequence's consumer) that falls behind gets one batch, with each row's
/// newest value, never a backlog.
@usableFromInline
final class LiveBatches<ID: Hashable & Sendable>: Sendable {
  /// A row whose value changed: its ID, and what the engine's column says of it.
  @usableFromInline typealias Change = (id: ID, entry: LiveColumns.Entry)

  private struct Waiting {
    var changes: [Change] = []
    /// How many posts `changes` holds: with more than one, a row may be in it more than once.
    var posts = 0

    /// Adds a post's changes: the array itself when nothing waits (nothing copied).
    mutating func add(_ new: [Change]) {
      if changes.isEmpty { changes = new } else { changes += new }
      posts += 1
    }

    mutating func take() -> [Change] {
      defer { self = Waiting() }
      return posts > 1 ? LiveBatches.newest(changes) : changes
    }
  }

  private struct State {
    var main = Waiting()
    /// Whether a delivery to the main actor is on its way (one is enough for everything posted
    /// before it runs).
    var isDeliveryScheduled = false
    /// The handlers, in the order they were added, each with its key.
    var handlers: [(key: UInt64, handler: @MainActor @Sendable ([Change]) -> Void)] = []
    var streams: [UInt64: (waiting: Waiting, wake: AsyncStream<Void>.Continuation)] = [:]
    var nextKey: UInt64 = 0
    /// Whether the board's values ended (the board is gone): new streams end at once.
    var isOver = false

    mutating func takeKey() -> UInt64 {
      defer { nextKey += 1 }
      return nextKey
    }
  }

  private let state = Lock(State())

  @usableFromInline
  init() {}

  /// Adds a wake-up's changed rows; called under the engine's lock (engine → leaf). Returns whether
  /// a delivery to the main actor must be sent (none is on its way yet, and there are handlers), and
  /// the signals of the sequences that now have something waiting, to be yielded once no lock is held.
  func post(_ changes: [Change]) -> (needsDelivery: Bool, wakes: [AsyncStream<Void>.Continuation]) {
    state.withLock { state in
      var wakes: [AsyncStream<Void>.Continuation] = []
      for key in Array(state.streams.keys) {
        state.streams[key]?.waiting.add(changes)
        if let wake = state.streams[key]?.wake { wakes.append(wake) }
      }
      guard !state.handlers.isEmpty else { return (false, wakes) }
      state.main.add(changes)
      defer { state.isDeliveryScheduled = true }
      return (!state.isDeliveryScheduled, wakes)
    }
  }

  /// Runs the handlers with what waited for the main actor, if anything did; a handler removed
  /// meanwhile (by another one) is not called.
  @MainActor
  func deliver() {
    let (changes, handlers) = state.withLock { state in
      state.isDeliveryScheduled = false
      return (state.main.take(), state.handlers)
    }
    guard !changes.isEmpty else { return }
    for (key, handler) in handlers {
      guard state.withLock({ $0.handlers.contains { $0.key == key } }) else { continue }
      handler(changes)
    }
  }

  /// Adds a main-actor handler; returns what removes it.
  func add(_ handler: @escaping @MainActor @Sendable ([Change]) -> Void) -> BoardObservation {
    let key = state.withLock { state in
      let key = state.takeKey()
      state.handlers.append((key, handler))
      return key
    }
    return BoardObservation { [weak self] in
      let removed = self?.state.withLock { state in
        state.handlers.firstIndex { $0.key == key }.map { state.handlers.remove(at: $0).handler }
      }
      // Let go of after the lock: what the handler captures (an observation) may take a lock as it goes.
      withExtendedLifetime(removed) {}
    }
  }

  /// A new stream's key and the signal that something waits for it (a signal that has ended, if the
  /// board's values have).
  func subscribe() -> (key: UInt64, wake: AsyncStream<Void>) {
    let (wake, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let key = state.withLock { state -> UInt64 in
      let key = state.takeKey()
      if !state.isOver { state.streams[key] = (Waiting(), continuation) }
      return key
    }
    if state.withLock({ $0.streams[key] == nil }) { continuation.finishUnlocked() }
    return (key, wake)
  }

  /// Ends every stream and drops the handlers: the board is gone, and keeps no value any more.
  func end() {
    let (wakes, handlers) = state.withLock { state in
      state.isOver = true
      defer { (state.streams, state.handlers) = ([:], []) }
      return (state.streams.values.map(\.wake), state.handlers)
    }
    for wake in wakes { wake.finishUnlocked() }
    // The handlers go after the lock too (what they capture may take a lock as it goes).
    withExtendedLifetime(handlers) {}
  }

  /// Takes what waits for stream `key`.
  func take(for key: UInt64) -> [Change] {
    state.withLock { state in state.streams[key]?.waiting.take() ?? [] }
  }

  /// The number of streams subscribed.
  var subscriberCount: Int { state.withLock { $0.streams.count } }

  /// Forgets stream `key`.
  func unsubscribe(_ key: UInt64) {
    state.withLock { _ = $0.streams.removeValue(forKey: key) }
  }

  deinit {
    for stream in state.withLock({ $0.streams.values }) { stream.wake.finishUnlocked() }
  }

  /// `changes` with each row once, at the place and with the value of its last change: a walk from the
  /// end with one bit per engine row (what a row last showed is its last change).
  static func newest(_ changes: [Change]) -> [Change] {
    let rows = (changes.lazy.map { Int($0.entry.row) }.max() ?? 0) + 1
    var seen = [UInt64](repeating: 0, count: (rows + 63) / 64)
    var kept: [Change] = []
    kept.reserveCapacity(changes.count)
    for change in changes.reversed() {
      let row = Int(change.entry.row)
      let bit: UInt64 = 1 << UInt64(row & 63)
      guard seen[row >> 6] & bit == 0 else { continue }
      seen[row >> 6] |= bit
      kept.append(change)
    }
    return kept.reversed()
  }
}
