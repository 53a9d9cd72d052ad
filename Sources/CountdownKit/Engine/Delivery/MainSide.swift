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
  private var tables: [(any SubscriberTable)?] = []
  private var tick: Tick = 0
  private var isDraining = false
  private var coalescer = Coalescer()
  /// What the prefetch passes read, kept so that the reads are not optimised away.
  private var prefetched: UInt = 0

  /// A main side whose class 0 (completions only) has `finishTable`.
  nonisolated init(finishTable: FinishTable) {
    tables = [finishTable]
  }

  /// Delivers everything `mailbox` holds, in order, until it is empty.
  func drain(_ mailbox: Mailbox) {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    while true {
      var (chunks, sources) = mailbox.take()
      guard !chunks.isEmpty else { break }
      // Changes of several wake-ups or operations: each subscriber gets only its newest one.
      if sources > 1 { chunks = coalescer.coalesce(chunks) }
      for index in chunks.indices {
        guard deliver(chunks[index], from: mailbox) else { return }
        // Moved out, so that the mailbox empties the only reference to its buffers and keeps them.
        var delivered = Mailbox.Chunk(epoch: 0)
        swap(&delivered, &chunks[index])
        mailbox.recycle(delivered)
      }
      mailbox.prune()
    }
  }

  /// Delivers one chunk; `false` if the engine shut down meanwhile (the rest is dropped).
  private func deliver(_ chunk: Mailbox.Chunk, from mailbox: Mailbox) -> Bool {
    var cancelled = Cancelled(epoch: chunk.epoch)
    let (events, ticks) = (chunk.events, chunk.ticks)
    var (nextEvent, nextTick) = (0, 0)
    return chunk.changes.withUnsafeBufferPointer { changes in
      var position = 0
      while true {
        while nextTick < ticks.count, Int(ticks[nextTick].position) <= position {
          tick = ticks[nextTick].tick
          nextTick += 1
        }
        while nextEvent < events.count, events[nextEvent].position <= position {
          guard run(events[nextEvent].event, cancelled: &cancelled, mailbox: mailbox) else { return false }
          nextEvent += 1
        }
        guard position < changes.count else { return true }
        // The changes up to the next event or tick: runs of one class, each in as many deliveries as it
        // takes to catch up with the cancellations made meanwhile.
        var limit = nextEvent < events.count ? events[nextEvent].position : changes.count
        if nextTick < ticks.count { limit = Swift.min(limit, Int(ticks[nextTick].position)) }
        while position < limit {
          guard cancelled.catchUp(with: mailbox) else { return false }
          guard let table = table(changes[position].displayClass) else {
            position += Effects.runLength(UnsafeBufferPointer(rebasing: changes[position..<limit]))
            continue
          }
          let (handled, read) = table.deliver(
            UnsafeBufferPointer(rebasing: changes[position..<limit]), at: tick, skipping: cancelled.keys,
            while: Mailbox.CancellationCheck(mailbox, epoch: cancelled.epoch))
          prefetched &+= read
          position += handled
        }
      }
    }
  }

  /// The subscribers cancelled since a chunk was posted.
  private struct Cancelled {
    /// The cancellation count `keys` is up to date with.
    var epoch: UInt64
    var keys: Set<SubscriberKey> = []

    /// Catches up with the cancellations made since `epoch`; `false` if everything was dropped (the
    /// engine shut down).
    mutating func catchUp(with mailbox: Mailbox) -> Bool {
      let count = mailbox.cancellations.load(ordering: .acquiring)
      guard count != epoch else { return true }
      guard let cancelled = mailbox.cancelled(since: epoch) else { return false }
      keys.formUnion(cancelled)
      epoch = count
      return true
    }
  }

  /// Runs one event; `false` if the engine shut down.
  private func run(_ event: Mailbox.Event, cancelled: inout Cancelled, mailbox: Mailbox) -> Bool {
    switch event {
    case .table(let displayClass, let table):
      let index = Int(displayClass)
      if index >= tables.count { tables.append(contentsOf: repeatElement(nil, count: index + 1 - tables.count)) }
      tables[index] = table
    case .install(let key, let serial, let subscriber):
      subscriber.install(key.sink, serial: serial)
    case .remove(let key):
      table(key.displayClass)?.remove(key.sink)
    case .finish(let key):
      guard cancelled.catchUp(with: mailbox) else { return false }
      guard let table = table(key.displayClass) else { break }
      if !cancelled.keys.contains(SubscriberKey(key, serial: table.serial(of: key.sink))) { table.finish(key.sink) }
    case .call(let work):
      guard cancelled.catchUp(with: mailbox) else { return false }
      work()
    }
    return true
  }

  private func table(_ displayClass: UInt32) -> (any SubscriberTable)? {
    Int(displayClass) < tables.count ? tables[Int(displayClass)] : nil
  }
}
