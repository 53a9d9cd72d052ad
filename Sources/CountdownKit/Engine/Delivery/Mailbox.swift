public import Synchronization

/// Main-actor deliveries on their way, in the order the engine made them.
///
/// The engine posts under its own lock (so the mailbox holds its changes in the order the core made
/// them, installs before the changes they serve); the main actor takes everything at once and delivers
/// it with no lock held (see ``MainSide``). A subscriber cancelled while its changes are on their way
/// must not be called: each cancellation bumps ``cancellations`` and is logged, and the main actor
/// checks the counter (one atomic load) before every call, looking at the log only when it moved.
@usableFromInline
final class Mailbox: Sendable {
  /// What the main actor does besides delivering changes.
  @usableFromInline
  enum Event: Sendable {
    /// Installs (or, with nil, drops) the table of a display class.
    case table(UInt32, (any SubscriberTable)?)
    /// Installs a subscriber in its display class's table, in its sink slot, as a subscriber number: a
    /// new one, or one that moves there from another display's table.
    case install(SinkKey, serial: UInt32, subscriber: any MainSubscriber)
    /// Removes a subscriber from its class's table.
    case remove(SinkKey)
    /// A subscriber's completion.
    case finish(SinkKey)
    /// Work for the main actor (a board's completion handlers).
    case call(@MainActor @Sendable () -> Void)
  }

  /// Changes and events posted while the cancellation count stood at `epoch`: at most ``capacity`` of
  /// each, in buffers made once and reused (see ``Mailbox/recycle(_:)``).
  struct Chunk {
    var epoch: UInt64
    var changes = MappedArray<Effects.Change>(capacity: Chunk.capacity)
    /// Each event with the number of changes before it.
    var events: [(position: Int, event: Event)] = []
    /// The tick the changes from each position on were computed at (16 bytes each, where an event is
    /// 40: an add makes one).
    var ticks = MappedArray<TickMark>(capacity: Chunk.capacity)

    /// The most changes, and the most events, a chunk holds: a burst (a hundred thousand countdowns
    /// added in one loop, a wake-up of a hundred thousand changes, changes piled up while the main
    /// actor was busy) is many chunks of this size, never one buffer grown to the size of the burst.
    static var capacity: Int { 2_048 }

    init(epoch: UInt64) {
      self.epoch = epoch
    }

    /// Whether the chunk has room for a change and an event.
    var hasRoom: Bool {
      changes.count < Self.capacity && events.count < Self.capacity && ticks.count < Self.capacity
    }
  }

  struct State {
    var chunks: [Chunk] = []
    /// How many serves and operations posted changes since the main actor last took them: with more
    /// than one, a subscriber may have several changes on their way (see ``Coalescer``).
    var sources = 0
    var isDrainScheduled = false
    var cancellationCount: UInt64 = 0
    /// The subscribers cancelled (nil: every one, for good), with the count their cancellation brought
    /// the counter to.
    var cancelled: [(count: UInt64, key: SubscriberKey?)] = []
    var lastTick: Tick?
    /// Emptied chunks of the last deliveries, kept for their buffers.
    var spares: [Chunk] = []

    /// The chunk to append to: the last one if nothing was cancelled since it was started and it has
    /// room; otherwise a new one, with the buffers of a delivered chunk when there is one.
    private mutating func current() -> Int {
      if let last = chunks.indices.last, chunks[last].epoch == cancellationCount, chunks[last].hasRoom { return last }
      var chunk = spares.popLast() ?? Chunk(epoch: 0)
      chunk.epoch = cancellationCount
      chunks.append(chunk)
      return chunks.count - 1
    }

    /// Appends `changes`, computed at `tick`, over as many chunks as they take.
    mutating func append(_ changes: Slice<ChangeBuffer>, at tick: Tick) {
      var position = changes.startIndex
      while position < changes.endIndex {
        let chunk = current()
        if lastTick != tick {
          lastTick = tick
          chunks[chunk].ticks.append(TickMark(position: Int32(chunks[chunk].changes.count), tick: tick))
        }
        let end = Swift.min(changes.endIndex, position + Chunk.capacity - chunks[chunk].changes.count)
        for index in position..<end { chunks[chunk].changes.append(changes.base[index]) }
        position = end
      }
    }

    /// Appends all of `changes`, computed at `tick`, and leaves `changes` empty. When they fit a new
    /// chunk, the chunk takes their buffer whole (nothing copied), and `changes` gets the chunk's.
    mutating func take(_ changes: inout ChangeBuffer, at tick: Tick) {
      guard !changes.isEmpty else { return }
      let chunk = current()
      guard chunks[chunk].changes.isEmpty, changes.rest.isEmpty else {
        append(changes[...], at: tick)
        changes.removeAll()
        return
      }
      if lastTick != tick {
        lastTick = tick
        chunks[chunk].ticks.append(TickMark(position: 0, tick: tick))
      }
      swap(&chunks[chunk].changes, &changes.first)
    }

    mutating func append(_ event: Event) {
      let chunk = current()
      chunks[chunk].events.append((chunks[chunk].changes.count, event))
    }

    /// Logs that `key` was cancelled: changes for it already posted are dropped.
    mutating func cancel(_ key: SubscriberKey, counter: borrowing Atomic<UInt64>) {
      cancellationCount += 1
      cancelled.append((cancellationCount, key))
      counter.store(cancellationCount, ordering: .releasing)
    }
  }

  let state = Lock(State(), level: .posting)
  /// The number of cancellations so far, for the main actor's check before each call.
  @usableFromInline let cancellations = Atomic<UInt64>(0)

  init() {}

  /// Posts under `body`; returns whether a hop to the main actor must be scheduled to deliver it.
  func post(_ body: (inout State, borrowing Atomic<UInt64>) -> Void) -> Bool {
    state.withLock { state in
      body(&state, cancellations)
      guard !state.chunks.isEmpty, !state.isDrainScheduled else { return false }
      state.isDrainScheduled = true
      return true
    }
  }

  /// Drops everything on its way, and cancels every subscriber for good: nothing is delivered after
  /// this returns, not even what the main actor already took. Called once, under the engine's lock, as
  /// the engine shuts down (it posts nothing afterwards).
  ///
  /// Returns what was dropped, for the caller to let go of once it holds no lock: the last reference to
  /// a subscriber's closure may be there, and what it captured may take a lock as it goes.
  func dropAll() -> [Chunk] {
    state.withLock { state in
      defer { state.chunks = [] }
      state.cancellationCount += 1
      state.cancelled.append((state.cancellationCount, nil))
      cancellations.store(state.cancellationCount, ordering: .releasing)
      return state.chunks
    }
  }

  /// The most emptied chunks kept for their buffers (96 KiB mapped each, and their events): enough for the changes of a
  /// wake-up of several thousand countdowns without making buffers anew; a burst beyond lets the
  /// rest go once delivered.
  static var spareLimit: Int { 8 }

  /// Keeps a delivered chunk's buffers (emptied) for later chunks, up to ``spareLimit`` chunks.
  func recycle(_ chunk: consuming Chunk) {
    var chunk = chunk
    guard chunk.events.capacity <= Chunk.capacity else { return }
    chunk.changes.removeAll()
    chunk.events.removeAll(keepingCapacity: true)
    chunk.ticks.removeAll()
    state.withLock { state in
      if state.spares.count < Self.spareLimit { state.spares.append(chunk) }
    }
  }

  /// Takes everything posted so far, and how many serves and operations posted its changes.
  func take() -> (chunks: [Chunk], sources: Int) {
    state.withLock { state in
      state.isDrainScheduled = false
      defer {
        state.chunks = []
        state.sources = 0
      }
      return (state.chunks, state.sources)
    }
  }

  /// The subscribers cancelled since the count stood at `epoch`; nil if every one was (``dropAll()``).
  func cancelled(since epoch: UInt64) -> [SubscriberKey]? {
    state.withLock { state in
      var keys: [SubscriberKey] = []
      for (count, key) in state.cancelled where count > epoch {
        guard let key else { return nil }
        keys.append(key)
      }
      return keys
    }
  }

  /// Forgets the cancellations no chunk still on its way can be concerned by.
  func prune() {
    state.withLock { state in
      let oldest = state.chunks.first?.epoch ?? state.cancellationCount
      state.cancelled.removeAll { $0.count <= oldest }
    }
  }
}

extension Mailbox {
  /// The main actor's check before each call: whether nothing was cancelled since the count stood at
  /// `epoch` (one atomic load, made in the delivery loop itself).
  @usableFromInline
  struct CancellationCheck {
    @usableFromInline let mailbox: Mailbox
    @usableFromInline let epoch: UInt64

    @inlinable
    init(_ mailbox: Mailbox, epoch: UInt64) {
      self.mailbox = mailbox
      self.epoch = epoch
    }

    /// Whether nothing was cancelled since `epoch`.
    @inlinable
    var holds: Bool { mailbox.cancellations.load(ordering: .acquiring) == epoch }
  }
}

/// Where, among a chunk's changes, the tick of the changes that follow changes.
struct TickMark: Sendable {
  /// The number of changes before the mark.
  var position: Int32
  /// The tick the changes from the mark on were computed at.
  var tick: Tick
}
