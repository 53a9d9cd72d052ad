/// Keeps only each subscriber's newest change among what the main actor takes from the mailbox at
/// once, so that a main actor that fell behind gets one snapshot per subscriber, the current one, not a
/// backlog of stale ones.
///
/// A change is dropped when a later change of the same subscriber follows it with nothing in between
/// that separates the two: the subscriber's install, removal, or its completion (so that the
/// completion still comes right after the snapshot that shows zero), or a new table for its display
/// class. What is left keeps its order, and every event keeps its place among the changes.
///
/// Only needed when what was taken holds the changes of more than one wake-up or operation: one serve
/// delivers at most one change per subscriber.
struct Coalescer {
  /// For each display class, the pass in which each sink slot's newest change was found (0: none).
  private var newest: [[UInt32]] = []
  private var pass: UInt32 = 0

  /// `chunks` with every change that a later change of the same subscriber supersedes removed.
  mutating func coalesce(_ chunks: [Mailbox.Chunk]) -> [Mailbox.Chunk] {
    pass &+= 1
    if pass == 0 {
      newest = []
      pass = 1
    }
    var kept = chunks
    for index in chunks.indices.reversed() {
      let superseded = supersededChanges(in: chunks[index])
      guard superseded.contains(true) else { continue }
      kept[index] = Self.removing(superseded, from: chunks[index])
    }
    return kept
  }

  /// Which changes of `chunk` a later one (in this chunk or in the chunks already walked) supersedes;
  /// walks the chunk backwards, marking each subscriber's newest change.
  private mutating func supersededChanges(in chunk: Mailbox.Chunk) -> [Bool] {
    var superseded = [Bool](repeating: false, count: chunk.changes.count)
    var event = chunk.events.count - 1
    for position in chunk.changes.indices.reversed() {
      // Events between this change and the next one separate what comes before them.
      while event >= 0, chunk.events[event].position > position {
        separate(at: chunk.events[event].event)
        event -= 1
      }
      let key = chunk.changes[position].sinkKey
      // A change that carries the subscriber's completion or release is always delivered, and
      // supersedes what came before it.
      if isMarked(key), !chunk.changes[position].endsStretch {
        superseded[position] = true
      } else {
        mark(key)
      }
    }
    while event >= 0 {
      separate(at: chunk.events[event].event)
      event -= 1
    }
    return superseded
  }

  private func isMarked(_ key: SinkKey) -> Bool {
    let (displayClass, sink) = (Int(key.displayClass), Int(key.sink))
    return displayClass < newest.count && sink < newest[displayClass].count && newest[displayClass][sink] == pass
  }

  private mutating func mark(_ key: SinkKey) {
    let (displayClass, sink) = (Int(key.displayClass), Int(key.sink))
    if displayClass >= newest.count { newest += Array(repeating: [], count: displayClass + 1 - newest.count) }
    if sink >= newest[displayClass].count {
      newest[displayClass] += Array(repeating: 0, count: sink + 1 - newest[displayClass].count)
    }
    newest[displayClass][sink] = pass
  }

  private mutating func unmark(_ key: SinkKey) {
    let (displayClass, sink) = (Int(key.displayClass), Int(key.sink))
    guard displayClass < newest.count, sink < newest[displayClass].count else { return }
    newest[displayClass][sink] = 0
  }

  /// Forgets the newest changes found so far for what `event` separates from the changes before it.
  private mutating func separate(at event: Mailbox.Event) {
    switch event {
    case .install(let key, _, _), .remove(let key), .finish(let key):
      unmark(key)
    case .table(let displayClass, _):
      if Int(displayClass) < newest.count { newest[Int(displayClass)] = [] }
    case .call:
      break
    }
  }

  /// `chunk` without the changes marked in `superseded`, its events at the same places among the
  /// changes that are left.
  private static func removing(_ superseded: [Bool], from chunk: Mailbox.Chunk) -> Mailbox.Chunk {
    var result = Mailbox.Chunk(epoch: chunk.epoch)
    result.events.reserveCapacity(chunk.events.count)
    var (event, tick) = (0, 0)
    for position in chunk.changes.indices {
      while tick < chunk.ticks.count, Int(chunk.ticks[tick].position) <= position {
        result.ticks.append(TickMark(position: Int32(result.changes.count), tick: chunk.ticks[tick].tick))
        tick += 1
      }
      while event < chunk.events.count, chunk.events[event].position <= position {
        result.events.append((result.changes.count, chunk.events[event].event))
        event += 1
      }
      if !superseded[position] { result.changes.append(chunk.changes[position]) }
    }
    for index in tick..<chunk.ticks.count {
      result.ticks.append(TickMark(position: Int32(result.changes.count), tick: chunk.ticks[index].tick))
    }
    for index in event..<chunk.events.count {
      result.events.append((result.changes.count, chunk.events[index].event))
    }
    return result
  }
}
