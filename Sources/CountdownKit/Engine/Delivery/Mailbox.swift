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
    /// The changes that follow were computed at this tick.
    case tick(Tick)
    /// Installs (or, with nil, drops) the table of a display class.
    case table(UInt32, MainTable?)
    /// Installs a subscriber (its box) in its display class's table, in its sink slot, as a subscriber
    /// number.
    case install(SinkKey, serial: UInt32, subscriber: any AnyObject & Sendable)
    /// Moves a subscriber to another display class's table (another sink slot, as another subscriber
    /// number): its countdown is shown through another display.
    case move(from: SinkKey, to: SinkKey, serial: UInt32)
    /// Removes a subscriber from its class's table.
    case remove(SinkKey)
    /// A subscriber's completion.
    case finish(SinkKey)
    /// Work for the main actor (a board's completion handlers).
    case call(@MainActor @Sendable () -> Void)
  }

  /// Changes and events posted while the cancellation count stood at `epoch`.
  struct Chunk {
    var epoch: UInt64
    var changes: [Effects.Change] = []
    /// Each event with the number of changes before it.
    var events: [(position: Int, event: Event)] = []
  }

  struct State {
    var chunks: [Chunk] = []
    /// How many serves and operations posted changes since the main actor last took them: with more
    /// than one, a subscriber may have several changes on their way (see ``Coalescer``).
    var sources = 0
    var isDrainScheduled = false
    var cancellationCount: UInt64 = 0
    /// The subscribers cancelled, with the count their cancellation brought the counter to.
    var cancelled: [(count: UInt64, key: SubscriberKey)] = []
    var isShutDown = false
    var lastTick: Tick?
    /// Emptied change buffers of delivered chunks, kept for their storage.
    var spareBuffers: [[Effects.Change]] = []

    /// The chunk to append to: the last one if nothing was cancelled since it was started.
    private mutating func current() -> Int {
      if let last = chunks.indices.last, chunks[last].epoch == cancellationCount { return last }
      chunks.append(Chunk(epoch: cancellationCount))
      return chunks.count - 1
    }

    mutating func append(_ changes: ArraySlice<Effects.Change>, at tick: Tick) {
      guard !changes.isEmpty, !isShutDown else { return }
      let chunk = current()
      if lastTick != tick {
        lastTick = tick
        chunks[chunk].events.append((chunks[chunk].changes.count, .tick(tick)))
      }
      chunks[chunk].changes.append(contentsOf: changes)
    }

    /// Appends all of `changes`, taking the buffer itself when the chunk has none yet, and leaves
    /// `changes` empty (with the storage of a delivered chunk, when there is one to reuse).
    mutating func take(_ changes: inout [Effects.Change], at tick: Tick) {
      guard !changes.isEmpty, !isShutDown else { return }
      let chunk = current()
      if lastTick != tick {
        lastTick = tick
        chunks[chunk].events.append((chunks[chunk].changes.count, .tick(tick)))
      }
      if chunks[chunk].changes.isEmpty {
        swap(&chunks[chunk].changes, &changes)
        changes = spareBuffers.popLast() ?? []
      } else {
        chunks[chunk].changes.append(contentsOf: changes)
        changes.removeAll(keepingCapacity: true)
      }
    }

    mutating func append(_ event: Event) {
      guard !isShutDown else { return }
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

  /// Drops everything on its way, for good: nothing is delivered after this returns.
  func shutDown() {
    state.withLock { state in
      state.isShutDown = true
      state.chunks = []
      state.cancellationCount += 1
      cancellations.store(state.cancellationCount, ordering: .releasing)
    }
  }

  /// The largest change buffer kept for reuse (4,096 changes, 128 KiB, four times the driver's
  /// chunk): the buffer of a burst (a hundred thousand countdowns added in one loop, or a wake-up's
  /// changes piled up while the main actor was busy) is let go once delivered, not kept for good.
  static var spareCapacityLimit: Int { 4_096 }

  /// Keeps a delivered chunk's change buffer (emptied) for a later chunk, unless it is a burst's.
  func recycle(_ buffer: consuming [Effects.Change]) {
    var buffer = buffer
    guard buffer.capacity <= Self.spareCapacityLimit else { return }
    buffer.removeAll(keepingCapacity: true)
    state.withLock { state in
      if state.spareBuffers.count < 4 { state.spareBuffers.append(buffer) }
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

  /// The subscribers cancelled since the count stood at `epoch`, and whether the engine shut down.
  func cancelled(since epoch: UInt64) -> (keys: [SubscriberKey], isShutDown: Bool) {
    state.withLock { state in
      (state.cancelled.filter { $0.count > epoch }.map(\.key), state.isShutDown)
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
