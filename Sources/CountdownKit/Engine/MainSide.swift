import Synchronization

/// The engine's main-actor half: the tables of its display classes, and the walk that delivers what
/// the mailbox holds.
///
/// Changes are delivered in runs of one display class, each run by its class's table in one call: a
/// prefetch pass over the subscribers it will call, then the calls, with no lock held and nothing
/// allocated. Cancellations made while a chunk is on its way drop the changes of the cancelled
/// subscribers that come after them: before each call, one atomic load tells whether anything was
/// cancelled since the chunk was posted, so nothing is delivered to a subscriber after its `cancel()`
/// returned.
///
/// Deliveries are not reentrant: a subscriber that causes a delivery from its own callback (binding a
/// slot, say) gets it once the current chunk is done, in order, not in the middle of it.
@MainActor
final class MainSide: Sendable {
  private var tables: [MainTable?] = []
  private var tick: Tick = 0
  private var isDraining = false
  /// What the prefetch passes read, kept so that the reads are not optimised away.
  private var prefetched: UInt = 0

  /// A main side whose class 0 (completions only) has `finishTable`.
  nonisolated init(finishTable: MainTable) {
    tables = [finishTable]
  }

  /// Delivers everything `mailbox` holds, in order, until it is empty.
  func drain(_ mailbox: Mailbox) {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    while true {
      let chunks = mailbox.take()
      guard !chunks.isEmpty else { break }
      for chunk in chunks {
        guard deliver(chunk, from: mailbox) else { return }
      }
      mailbox.prune()
    }
  }

  /// Delivers one chunk; `false` if the engine shut down meanwhile (the rest is dropped).
  private func deliver(_ chunk: Mailbox.Chunk, from mailbox: Mailbox) -> Bool {
    var epoch = chunk.epoch
    var dropped: Set<SinkKey> = []
    var isShutDown = false
    /// Whether deliveries may go on, having caught up with the cancellations made since `epoch`.
    func mayDeliver() -> Bool {
      let count = mailbox.cancellations.load(ordering: .acquiring)
      guard count != epoch, !isShutDown else { return !isShutDown }
      let cancelled = mailbox.cancelled(since: epoch)
      dropped.formUnion(cancelled.keys)
      isShutDown = cancelled.isShutDown
      epoch = count
      return !isShutDown
    }
    func isLive(_ change: Effects.Change) -> Bool {
      mayDeliver() && (dropped.isEmpty || !dropped.contains(change.sinkKey))
    }
    let events = chunk.events
    var nextEvent = 0
    return chunk.changes.withUnsafeBufferPointer { changes in
      var position = 0
      while true {
        while nextEvent < events.count, events[nextEvent].position <= position {
          guard run(events[nextEvent].event, mayDeliver: mayDeliver, isLive: isLive) else { return false }
          nextEvent += 1
        }
        guard position < changes.count else { return true }
        // A run: the changes of one class up to the next event.
        let limit = nextEvent < events.count ? events[nextEvent].position : changes.count
        let displayClass = changes[position].displayClass
        var end = position + 1
        while end < limit, changes[end].displayClass == displayClass { end += 1 }
        guard mayDeliver() else { return false }
        if let table = table(displayClass) {
          prefetched &+= table.deliver(UnsafeBufferPointer(rebasing: changes[position..<end]), tick, isLive)
        }
        position = end
      }
    }
  }

  /// Runs one event; `false` if the engine shut down.
  private func run(_ event: Mailbox.Event, mayDeliver: () -> Bool, isLive: (Effects.Change) -> Bool) -> Bool {
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
      // A completion is checked like a change of its subscriber.
      let probe = Effects.Change(
        sink: key.sink, displayClass: key.displayClass, paused: false, finished: true, value: 0, remaining: 0, total: -1
      )
      if isLive(probe) { table(key.displayClass)?.finish(key.sink) }
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
