/// What the engine keeps for each row that somebody watches: a subscriber's closure, a stream, a bound
/// slot, or only a completion callback. 16 bytes each; rows that nobody watches (most rows of a long
/// list) have none.
@usableFromInline
package struct Bindings: Sendable {
  /// One binding.
  @usableFromInline
  package struct Binding: Sendable {
    /// The compact value last delivered (plan displays; displays without one keep theirs in
    /// ``GenericValues``).
    package var last: Int64
    /// Where deliveries go: the slot in the display class's sink table (main actor), or the stream's
    /// index.
    package var sink: UInt32
    package var displayClass: UInt32 { packed & 0x00FF_FFFF }
    private var packed: UInt32

    private static let hasLastBit: UInt32 = 1 << 24
    private static let lastPausedBit: UInt32 = 1 << 25
    private static let lastFinishedBit: UInt32 = 1 << 26
    private static let streamBit: UInt32 = 1 << 27
    private static let everyChangeBit: UInt32 = 1 << 28

    /// A binding to slot `sink` of display class `displayClass` (to stream `sink`, for a stream), that
    /// has delivered nothing yet: the one way a binding is made.
    @usableFromInline
    package init(displayClass: UInt32, sink: UInt32, isStream: Bool, deliversEveryChange: Bool = false) {
      last = 0
      self.sink = sink
      packed =
        (displayClass & 0x00FF_FFFF) | (isStream ? Self.streamBit : 0) | (deliversEveryChange ? Self.everyChangeBit : 0)
    }

    /// Whether the deliveries go to a stream (off the main actor).
    package var isStream: Bool { packed & Self.streamBit != 0 }

    /// Whether the subscriber is told of every change made to the countdown (pause, resume, retarget,
    /// extend, a moved date), even one that leaves what its display shows as it is
    /// (``SnapshotDelivery/whenCountdownChanges``).
    package var deliversEveryChange: Bool { packed & Self.everyChangeBit != 0 }

    /// Whether ``last``, ``lastPaused`` and ``lastFinished`` hold what was last delivered.
    package var hasLast: Bool { packed & Self.hasLastBit != 0 }
    package var lastPaused: Bool { packed & Self.lastPausedBit != 0 }
    package var lastFinished: Bool { packed & Self.lastFinishedBit != 0 }

    /// Whether the last delivery (there was one) showed a countdown running with time left.
    package var lastShowedRunning: Bool {
      packed & (Self.hasLastBit | Self.lastPausedBit | Self.lastFinishedBit) == Self.hasLastBit
    }

    /// Records the paused and finished flags of a delivery.
    package mutating func setLast(paused: Bool, finished: Bool) {
      packed =
        (packed & ~(Self.lastPausedBit | Self.lastFinishedBit)) | Self.hasLastBit
        | (paused ? Self.lastPausedBit : 0) | (finished ? Self.lastFinishedBit : 0)
    }
  }

  private(set) var items: [Binding] = []
  private var free: [UInt32] = []
  /// The number of live bindings.
  package private(set) var count = 0

  package init() {}

  /// Stores `binding`, returning its index.
  package mutating func insert(_ binding: Binding) -> UInt32 {
    count += 1
    if let index = free.popLast() {
      items[Int(index)] = binding
      return index
    }
    items.append(binding)
    return UInt32(items.count - 1)
  }

  /// Frees binding `index`, returning what it held.
  @discardableResult
  package mutating func remove(_ index: UInt32) -> Binding {
    count -= 1
    free.append(index)
    return items[Int(index)]
  }

  package subscript(index: UInt32) -> Binding {
    get { items[Int(index)] }
    set { items[Int(index)] = newValue }
  }

  /// Calls `body` with the bindings' storage, indexed by binding: for a batch of rows at once.
  mutating func withUnsafeMutableItems<Result>(_ body: (UnsafeMutableBufferPointer<Binding>) -> Result) -> Result {
    items.withUnsafeMutableBufferPointer { body($0) }
  }
}
