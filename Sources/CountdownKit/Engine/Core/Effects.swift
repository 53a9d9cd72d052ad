/// What the engine core hands out: data, never closures. The engine turns it into deliveries once it
/// has let go of its lock (main-actor changes through the mailbox, stream changes through the outbox).
@usableFromInline
package struct Effects: Sendable {
  /// A visible change for one subscriber: everything a snapshot is made of, in 32 bytes.
  @usableFromInline
  package struct Change: Equatable, Sendable, BitwiseCopyable {
    /// The subscriber's slot in its display class's sink table, or its stream.
    @usableFromInline package var sink: UInt32
    /// The display class (low 24 bits) and the paused and finished flags.
    @usableFromInline package var packed: UInt32
    /// The compact value (plan displays; see ``DisplayPlan``), or 0.
    @usableFromInline package var value: Int64
    /// The remaining time, in ticks.
    @usableFromInline package var remaining: Tick
    /// The countdown's total in ticks, for progress; -1 for none.
    @usableFromInline package var total: Tick

    @usableFromInline static var pausedBit: UInt32 { 1 << 24 }
    @usableFromInline static var finishedBit: UInt32 { 1 << 25 }
    @usableFromInline static var finishesBit: UInt32 { 1 << 26 }
    @usableFromInline static var releasesBit: UInt32 { 1 << 27 }

    package init(
      sink: UInt32, displayClass: UInt32, paused: Bool, finished: Bool, value: Int64, remaining: Tick, total: Tick
    ) {
      self.sink = sink
      packed = displayClass | (paused ? Self.pausedBit : 0) | (finished ? Self.finishedBit : 0)
      self.value = value
      self.remaining = remaining
      self.total = total
    }

    @usableFromInline package var displayClass: UInt32 { packed & 0x00FF_FFFF }
    @usableFromInline package var isPaused: Bool { packed & Self.pausedBit != 0 }
    @usableFromInline package var isFinished: Bool { packed & Self.finishedBit != 0 }

    /// The subscriber's completion comes right after this change: its `onFinish` is called once the
    /// snapshot is delivered (what a `finished` event would say, without one).
    @inlinable package var finishesSubscriber: Bool {
      get { packed & Self.finishesBit != 0 }
      set { packed = newValue ? packed | Self.finishesBit : packed & ~Self.finishesBit }
    }

    /// This is the subscriber's last change: its table lets it go once the change (and its completion)
    /// is delivered (what a `sinkReleased` event that is not a cancellation would say, without one).
    @inlinable package var releasesSubscriber: Bool {
      get { packed & Self.releasesBit != 0 }
      set { packed = newValue ? packed | Self.releasesBit : packed & ~Self.releasesBit }
    }

    /// Whether the change ends a stretch of the subscriber's changes (see ``Coalescer``).
    @inlinable package var endsStretch: Bool { packed & (Self.finishesBit | Self.releasesBit) != 0 }
    /// The key of the change's sink among all sinks of the engine.
    @inlinable package var sinkKey: SinkKey { SinkKey(displayClass: displayClass, sink: sink) }
  }

  /// Something that happens seldom: a completion, a subscriber going away.
  package enum Event: Equatable, Sendable {
    /// Row `row` (of board `owner`, when not 0) finished; its binding, if any, is `sink`.
    case finished(row: UInt32, owner: UInt16, sink: SinkKey?, isStream: Bool)
    /// A binding went away: a subscriber that was cancelled, a stream that ended, a slot that let go.
    /// `cancelled`: by a call (deliveries already on their way are dropped); otherwise on its own,
    /// after its last delivery (those are still made). `serial` tells it from every other subscriber.
    case sinkReleased(SinkKey, serial: UInt32, isStream: Bool, cancelled: Bool)
    /// Display class `displayClass` is gone (its number may be reused).
    case classReleased(UInt32)
  }

  /// Main-actor changes, in order.
  package var changes = ChangeBuffer(capacity: Mailbox.Chunk.capacity)
  /// Stream changes, in order.
  package var streamChanges: [Change] = []
  /// Events, each with how many main-actor and stream changes came before it.
  package var events: [(changes: Int, streamChanges: Int, event: Event)] = []

  package init() {}

  package mutating func append(_ event: Event) {
    events.append((changes.count, streamChanges.count, event))
  }

  package var isEmpty: Bool { changes.isEmpty && streamChanges.isEmpty && events.isEmpty }

  /// How many changes at the start of `changes` are of the display class of the first one.
  @inlinable
  static func runLength(_ changes: UnsafeBufferPointer<Change>) -> Int {
    guard let first = changes.first else { return 0 }
    var end = 1
    while end < changes.count, changes[end].displayClass == first.displayClass { end += 1 }
    return end
  }

  /// Empties the buffers, keeping their storage unless a burst made them large (more than 65,536
  /// entries).
  package mutating func removeAll() {
    let limit = 65_536
    changes.removeAll()
    streamChanges.removeAll(keepingCapacity: streamChanges.capacity <= limit)
    events.removeAll(keepingCapacity: events.capacity <= limit)
  }
}
