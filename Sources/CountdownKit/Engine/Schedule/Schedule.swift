import HeapModule

/// When each row is due next: pure timing data, with no knowledge of what a row is.
///
/// Rows are grouped in *lanes*, one per tolerance (the lateness allowed to their changes). A lane cuts
/// time into slots 15/16 of its tolerance wide, counted from the engine's origin, and serves each slot
/// at its end: nothing is early, and nothing is later than the tolerance while a slot's changes can be
/// served in its last 1/16. Near due instants (the next 64 slots) wait in a ``Wheel``, where queueing a
/// change is an append; far and overdue ones in a min-heap (HeapModule). A row has at most one valid
/// item at a time; an item whose stamp no longer matches its row's is stale and is skipped when it
/// surfaces (lazy deletion), or dropped by ``compact(isStale:)``.
///
/// The schedule never reads a clock, never locks and never calls out: ``EngineCore`` feeds it ticks
/// and takes due items back.
package struct Schedule: Sendable {
  /// A row due at a tick.
  package struct Item: Comparable, Sendable {
    package var due: Tick
    package var row: UInt32
    package var stamp: UInt32

    package static func < (lhs: Item, rhs: Item) -> Bool { lhs.due < rhs.due }
  }

  /// An item with the lane it goes in.
  struct LanedItem {
    var item: Item
    var lane: Int
  }

  /// The due items of one tolerance.
  struct Lane: Sendable {
    let tolerance: Tick
    var wheel: Wheel
    var heap: Heap<Item> = []

    init(tolerance: Tick) {
      self.tolerance = tolerance
      wheel = Wheel(width: Swift.max(tolerance / 16 * 15 + tolerance % 16 * 15 / 16, 1))
    }

    /// Queues `items` (all of this lane): in the wheel, or in the heap those it does not take.
    mutating func insert(contentsOf items: UnsafeBufferPointer<LanedItem>, spare: inout [[Item]], limit: Int) {
      wheel.insert(contentsOf: items, spare: &spare) {
        Self.push($0, into: &heap, limit: limit)
      }
    }

    /// Queues `item` in the heap (see ``Schedule/insert(_:lane:limit:)``).
    mutating func push(_ item: Item, limit: Int) {
      Self.push(item, into: &heap, limit: limit)
    }

    /// Queues `item` in `heap`. Storage that must grow doubles, but to no more than `limit` items while
    /// that is enough (``grownCapacity(from:toHold:limit:)``): the engine's row capacity, since a row has
    /// one valid item at a time.
    static func push(_ item: Item, into heap: inout Heap<Item>, limit: Int) {
      let capacity = heap.unordered.capacity
      if heap.count >= capacity {
        heap.reserveCapacity(grownCapacity(from: capacity, toHold: heap.count + 1, limit: limit))
      }
      heap.insert(item)
    }
  }

  private(set) var lanes: [Lane] = []
  /// Buffers taken out of the wheels by the serve under way, and where it stands in them.
  private var serving: [[Item]] = []
  private var servingBuffer = 0
  private var servingPosition = 0
  /// Emptied slot buffers kept for their capacity, so that slots do not grow their storage again on
  /// every turn of a wheel.
  private var spare: [[Item]] = []
  /// Items held in wheels, heaps and the serve under way, stale ones included.
  package private(set) var count = 0

  package init() {}

  /// The lane for `tolerance` (in ticks), made if there is none yet.
  package mutating func lane(forTolerance tolerance: Tick) -> Int {
    if let existing = lanes.firstIndex(where: { $0.tolerance == tolerance }) { return existing }
    lanes.append(Lane(tolerance: tolerance))
    return lanes.count - 1
  }

  /// The tolerance of lane `lane`, in ticks.
  package func tolerance(ofLane lane: Int) -> Tick { lanes[lane].tolerance }

  /// The number of lanes.
  package var laneCount: Int { lanes.count }

  /// Queues `item` in lane `lane`. A heap that must grow doubles, but to no more than `limit` items
  /// while that is enough (the engine's row capacity, ``Rows/storedCapacity``; 0: no limit).
  ///
  /// - Complexity: O(1) amortised for an item within the wheel, O(log n) in the heap.
  package mutating func insert(_ item: Item, lane: Int, limit: Int = 0) {
    count += 1
    if !lanes[lane].wheel.insert(item, spare: &spare) {
      lanes[lane].push(item, limit: limit)
    }
  }

  /// Queues `items`, each in its lane: in one pass per run of items of one lane (heaps grown as
  /// ``insert(_:lane:limit:)`` grows them).
  mutating func insert(contentsOf items: UnsafeBufferPointer<LanedItem>, limit: Int = 0) {
    count += items.count
    // With one lane (every display with the same tolerance) there are no runs to find.
    if lanes.count == 1 {
      lanes[0].insert(contentsOf: items, spare: &spare, limit: limit)
      return
    }
    var start = 0
    while start < items.count {
      let lane = items[start].lane
      var end = start + 1
      while end < items.count, items[end].lane == lane { end += 1 }
      lanes[lane].insert(contentsOf: UnsafeBufferPointer(rebasing: items[start..<end]), spare: &spare, limit: limit)
      start = end
    }
  }

  // MARK: - Serving

  /// Takes every item due at or before `now` out of the lanes, to be handed out by ``nextDue(upTo:)``.
  ///
  /// Call only when no serve is under way (``isServing`` is false).
  package mutating func beginServe(at now: Tick) {
    precondition(!isServing, "Internal inconsistency: a serve began while another was under way")
    recycleServed()
    for lane in lanes.indices {
      lanes[lane].wheel.takeDue(at: now, into: &serving, spare: &spare)
      if let top = lanes[lane].heap.min, top.due <= now {
        var overdue = spare.popLast() ?? []
        while let top = lanes[lane].heap.min, top.due <= now { overdue.append(lanes[lane].heap.removeMin()) }
        serving.append(overdue)
      }
    }
    // Each slot in row order, or in a few runs in row order: the rows, their bindings and, downstream,
    // the subscribers' tables and closures are then walked in memory order (rows are numbered in the
    // order they were added), in a few sequential streams at most, not scattered over a million of
    // them. A slot's items mostly come in two runs already: a row goes back into the wheel in the
    // order it was served, and a slot takes in the rows of the two slots one period before it when the
    // period is not a whole number of slots (a second is 10⅔ slots of 93.75 ms). Sorting those would be
    // the dearest step of a serve; only a slot in more runs is sorted.
    for buffer in serving.indices where Self.rowRuns(serving[buffer], atMost: Self.rowRunLimit) > Self.rowRunLimit {
      serving[buffer].sort { $0.row < $1.row }
    }
  }

  /// The most runs in row order a slot's items are walked in without sorting them.
  static var rowRunLimit: Int { 4 }

  /// How many runs in row order `items` fall into, counted up to `limit + 1`.
  static func rowRuns(_ items: [Item], atMost limit: Int) -> Int {
    items.withUnsafeBufferPointer { items in
      var runs = 1
      var previous: UInt32 = 0
      for item in items {
        if item.row < previous {
          runs += 1
          if runs > limit { break }
        }
        previous = item.row
      }
      return runs
    }
  }

  /// Whether items taken by the last ``beginServe(at:)`` are still to be handed out.
  package var isServing: Bool { servingBuffer < serving.count }

  /// The next items of the serve under way, at most `limit`, all from one slot (slot by slot, lane by
  /// lane); empty once all were handed out.
  package mutating func nextDue(upTo limit: Int) -> ArraySlice<Item> {
    while servingBuffer < serving.count {
      let buffer = serving[servingBuffer]
      if servingPosition < buffer.count {
        let end = Swift.min(buffer.count, servingPosition + limit)
        defer {
          count -= end - servingPosition
          servingPosition = end
        }
        return buffer[servingPosition..<end]
      }
      servingBuffer += 1
      servingPosition = 0
    }
    return []
  }

  /// How many items the schedule's buffers (wheel slots, spares, the serve under way) have room for:
  /// what it keeps allocated, for tests of its memory.
  package var storedCapacity: Int {
    lanes.reduce(0) { $0 + $1.wheel.slots.reduce(0) { $0 + $1.capacity } } + spare.reduce(0) { $0 + $1.capacity }
      + serving.reduce(0) { $0 + $1.capacity }
  }

  /// How many items the lanes' heaps have room for (for tests of their memory).
  package var heapsCapacity: Int { lanes.reduce(0) { $0 + $1.heap.unordered.capacity } }

  /// The most emptied buffers kept for their storage.
  static var spareLimit: Int { 4 }
  /// The largest buffer kept (in items, 2 MiB): a burst's buffer is let go once served.
  static var spareCapacityLimit: Int { 131_072 }

  /// Returns the buffers of the finished serve to the spare pool (at most a few, to bound what the
  /// pool holds).
  private mutating func recycleServed() {
    for index in serving.indices where spare.count < Self.spareLimit {
      // Moved out, not copied, so that emptying it keeps its storage instead of allocating anew.
      var buffer = serving[index]
      serving[index] = []
      guard buffer.capacity > 0, buffer.capacity <= Self.spareCapacityLimit else { continue }
      buffer.removeAll(keepingCapacity: true)
      spare.append(buffer)
    }
    serving.removeAll(keepingCapacity: true)
    servingBuffer = 0
    servingPosition = 0
  }

  // MARK: - Waking

  /// When the driver should wake next: the end of the earliest slot that holds a valid item; `nil`
  /// when nothing is queued. While a serve is under way, the due tick of its next item (past).
  ///
  /// Drops the stale items it meets at the front of each lane, so that a wake-up is never for nothing.
  package mutating func nextWake(isStale: (Item) -> Bool) -> Tick? {
    if isServing, servingPosition < serving[servingBuffer].count { return serving[servingBuffer][servingPosition].due }
    var earliest: Tick?
    for lane in lanes.indices {
      while let top = lanes[lane].heap.min, isStale(top) {
        lanes[lane].heap.removeMin()
        count -= 1
      }
      count -= lanes[lane].wheel.dropStaleFront(where: isStale)
      if let wake = lanes[lane].wheel.nextServe, earliest.map({ wake < $0 }) ?? true { earliest = wake }
      if let top = lanes[lane].heap.min {
        let wake = lanes[lane].wheel.slotEnd(of: top.due)
        if earliest.map({ wake < $0 }) ?? true { earliest = wake }
      }
    }
    return earliest
  }

  // MARK: - Housekeeping

  /// Drops every stale item from the wheels and heaps.
  ///
  /// - Complexity: O(n) in the items held.
  package mutating func compact(isStale: (Item) -> Bool) {
    for lane in lanes.indices {
      let valid = lanes[lane].heap.unordered.filter { !isStale($0) }
      count -= lanes[lane].heap.count - valid.count
      lanes[lane].heap = Heap(valid)
      count -= lanes[lane].wheel.removeAll(where: isStale)
    }
  }

  /// Forgets every item (shutting down); the lanes stay.
  package mutating func removeAll() {
    lanes = lanes.map { Lane(tolerance: $0.tolerance) }
    serving = []
    servingBuffer = 0
    servingPosition = 0
    spare = []
    count = 0
  }

  /// Every item held in wheels and heaps (not those of a serve under way), in no particular order: for
  /// the invariant checks.
  package var queuedItems: [Item] {
    lanes.flatMap { Array($0.heap.unordered) + Array($0.wheel.items) }
  }

  /// The items of the serve under way not yet handed out: for the invariant checks.
  package var servingItems: [Item] {
    guard isServing else { return [] }
    return Array(serving[servingBuffer][servingPosition...]) + serving[(servingBuffer + 1)...].flatMap { $0 }
  }
}
