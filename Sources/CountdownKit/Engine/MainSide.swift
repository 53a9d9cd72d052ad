import Synchronization

/// The engine's main-actor half: the tables of its display classes, and the walk that delivers what
/// the mailbox holds.
///
/// A chunk of changes is delivered in one pass with no lock held and nothing allocated: for each change,
/// one atomic load (has anything been cancelled since the chunk was posted?), the class's table (cached
/// while consecutive changes share a class), the subscriber's closure. Cancellations made while a chunk
/// is on its way drop the changes of the cancelled subscribers that come after them, so nothing is
/// delivered to a subscriber after its `cancel()` returned (the check is made just before each call).
@MainActor
final class MainSide: Sendable {
  private var tables: [MainTable?] = []
  private var tick: Tick = 0

  /// A main side whose class 0 (completions only) has `finishTable`.
  nonisolated init(finishTable: MainTable) {
    tables = [finishTable]
  }

  /// Delivers everything `mailbox` holds, in order.
  func drain(_ mailbox: Mailbox) {
    for chunk in mailbox.take() {
      guard deliver(chunk, from: mailbox) else { return }
    }
    mailbox.prune()
  }

  /// Delivers one chunk; `false` if the engine shut down meanwhile (the rest is dropped).
  private func deliver(_ chunk: Mailbox.Chunk, from mailbox: Mailbox) -> Bool {
    var epoch = chunk.epoch
    var dropped: Set<SinkKey> = []
    /// Whether deliveries may go on, having caught up with the cancellations made since `epoch`.
    func mayDeliver() -> Bool {
      let count = mailbox.cancellations.load(ordering: .acquiring)
      guard count != epoch else { return true }
      let (keys, isShutDown) = mailbox.cancelled(since: epoch)
      guard !isShutDown else { return false }
      dropped.formUnion(keys)
      epoch = count
      return true
    }
    var nextEvent = 0
    var cachedClass = UInt32.max
    var cachedDeliver: (@MainActor @Sendable (Effects.Change, Tick) -> Void)?
    for (position, change) in chunk.changes.enumerated() {
      while nextEvent < chunk.events.count, chunk.events[nextEvent].position <= position {
        guard run(chunk.events[nextEvent].event, mayDeliver: mayDeliver, dropped: { dropped }) else { return false }
        if case .table = chunk.events[nextEvent].event { cachedClass = .max }
        nextEvent += 1
      }
      guard mayDeliver() else { return false }
      if !dropped.isEmpty, dropped.contains(change.sinkKey) { continue }
      if change.displayClass != cachedClass {
        cachedClass = change.displayClass
        cachedDeliver = table(change.displayClass)?.deliver
      }
      cachedDeliver?(change, tick)
    }
    while nextEvent < chunk.events.count {
      guard run(chunk.events[nextEvent].event, mayDeliver: mayDeliver, dropped: { dropped }) else { return false }
      nextEvent += 1
    }
    return true
  }

  /// Runs one event; `false` if the engine shut down.
  private func run(_ event: Mailbox.Event, mayDeliver: () -> Bool, dropped: () -> Set<SinkKey>) -> Bool {
    switch event {
    case .tick(let tick):
      self.tick = tick
    case .table(let displayClass, let table):
      let index = Int(displayClass)
      if index >= tables.count { tables.append(contentsOf: repeatElement(nil, count: index + 1 - tables.count)) }
      tables[index] = table
    case .install(let install):
      install()
    case .remove(let key):
      table(key.displayClass)?.remove(key.sink)
    case .finish(let key):
      guard mayDeliver() else { return false }
      if !dropped().contains(key) { table(key.displayClass)?.finish(key.sink) }
    case .call(let work):
      guard mayDeliver() else { return false }
      work()
    }
    return true
  }

  private func table(_ displayClass: UInt32) -> MainTable? {
    Int(displayClass) < tables.count ? tables[Int(displayClass)] : nil
  }
}
