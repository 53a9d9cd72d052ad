package import Foundation
import HeapModule

/// Makes what to deliver when a countdown finishes.
@usableFromInline package typealias FinishWork = @Sendable () -> [Delivery]

/// Identifies one countdown inside a ``Scheduler``; stale once the countdown is removed.
package struct EntryID: Hashable, Sendable {
  package let index: UInt32
  package let incarnation: UInt32
}

/// The engine's scheduling core: a synchronous state machine that takes `now` and returns what to
/// deliver and when to wake next. It never reads a clock, never sleeps and never locks; the engine
/// wraps it in a lock and a driver task.
///
/// Each countdown is an *entry*. An entry with a renderer is due whenever its display's value changes;
/// every running entry is due at its end, where its completion fires exactly once (re-armed if a
/// retarget moves the end into the future again). Due instants wait, per tolerance class, in a
/// ``Wheel`` when they are near (a slot is an array) and in a min-heap when they are far or overdue,
/// with lazy deletion: each queued item carries the entry's stamp at the time it was queued, and an
/// item whose stamp no longer matches is skipped when it surfaces.
///
/// Coalescing: time is cut, per tolerance class, into slots 15/16 of the tolerance wide (counted from
/// the engine's origin). The driver wakes at the end of the earliest slot that holds a due instant and
/// serves *everything* due by that moment, so a class causes at most one wake-up per slot, never
/// serves a change early, and serves each within the tolerance, leaving the last 1/16 for serving and
/// delivering (see ``slotWidth(forTolerance:)``).
package struct Scheduler {
  /// The scheduler's instants: ticks since the engine's origin.
  package typealias Instant = EngineTick

  struct QueueItem: Comparable {
    var due: Instant
    var index: UInt32
    var stamp: UInt32

    static func < (lhs: QueueItem, rhs: QueueItem) -> Bool { lhs.due < rhs.due }
    static func == (lhs: QueueItem, rhs: QueueItem) -> Bool {
      lhs.due == rhs.due && lhs.index == rhs.index && lhs.stamp == rhs.stamp
    }
  }

  struct ToleranceClass {
    var tolerance: Duration
    var wheel: Wheel
    var heap: Heap<QueueItem> = []

    init(tolerance: Duration) {
      self.tolerance = tolerance
      wheel = Wheel(width: Scheduler.slotWidth(forTolerance: tolerance))
    }

    /// The items held, stale ones included.
    var count: Int { wheel.count + heap.count }
  }

  /// The entries by place; a vacant place holds ``Entry/vacant``. Not optional: reading a field of an
  /// optional entry in place copies the whole entry first (measured: ~5 % of the engine's CPU time).
  private(set) var slab: [Entry] = []
  private(set) var incarnations: [UInt32] = []
  /// For each place, the stamp of its entry's one valid queued item or, for a vacant place, the stamp
  /// its next occupant starts from. Stamps go on across occupants, so that an item a removed countdown
  /// left in a heap can never match the stamp of the one that reuses its place. Kept apart from the
  /// entries so that telling a stale item from a valid one touches four bytes, not an entry.
  private(set) var stamps: [UInt32] = []
  private var freeIndices: [UInt32] = []
  var classes: [ToleranceClass] = []
  var queuedItems = 0
  var validQueuedItems = 0
  /// What the current serve took out of the wheels and heaps, in due order (kept between serves for
  /// its capacity); the items from `batchPosition` on are still to be processed.
  var batch: [QueueItem] = []
  var batchPosition = 0

  /// The part of a tolerance that the driver leaves for serving and delivering: slots are `15/16` of
  /// the tolerance wide, so that a change, served at the end of its slot, reaches its subscriber
  /// within the tolerance even when a wake-up has thousands of changes to serve; and a class still
  /// wakes the driver at most `⌈16/15 · 1 s / tolerance⌉` times a second (11 at 100 ms).
  static func slotWidth(forTolerance tolerance: Duration) -> Duration {
    tolerance * 15 / 16
  }

  /// The largest lateness allowed; also the tolerance of entries without a display period.
  package let maximumTolerance: Duration

  /// The number of live entries.
  package private(set) var count = 0

  package init(maximumTolerance: Duration) {
    precondition(maximumTolerance > .zero, "The engine's tolerance must be positive, got \(maximumTolerance)")
    self.maximumTolerance = maximumTolerance
  }

  /// The lateness allowed for a display with `period`: a tenth of it, rounded down to a whole
  /// millisecond, between 1 ms and the maximum.
  ///
  /// Rounded so that displays with slightly different periods (rings of different sizes, say) share a
  /// tolerance class: there are at most as many classes as milliseconds in the maximum tolerance, and
  /// each wake-up and mutation looks at every class.
  package func tolerance(forPeriod period: Duration?) -> Duration {
    guard let period else { return maximumTolerance }
    let milliseconds = (period / 10).attoseconds / 1_000_000_000_000_000
    return Swift.min(.milliseconds(Int64(clamping: Swift.max(milliseconds, 1))), maximumTolerance)
  }

  /// The number of tolerance classes (for tests).
  package var classCount: Int { classes.count }

  // MARK: - Mutations

  /// Adds a countdown, renders it at once (if it has a renderer) and fires its completion if it is
  /// already finished. A convenience for tests: the engine passes completion work that is made only
  /// when it fires (``add(_:target:renderer:tolerance:finishing:removesWhenSettled:at:)``).
  package mutating func add(
    _ countdown: Countdown<Instant>,
    target: Date? = nil,
    renderer: Renderer?,
    tolerance: Duration? = nil,
    onFinish: [Delivery],
    removesWhenSettled: Bool = false,
    at now: Instant
  ) -> (id: EntryID, deliveries: [Delivery]) {
    var finishing: FinishWork?
    if !onFinish.isEmpty { finishing = { @Sendable in onFinish } }
    return add(
      countdown, target: target, renderer: renderer, tolerance: tolerance, finishing: finishing,
      removesWhenSettled: removesWhenSettled, at: now)
  }

  /// Adds a countdown whose completion work is made by `finishing` when it fires, so that a countdown
  /// whose completion never fires (most rows of a long list) holds one closure, not an array of them.
  package mutating func add(
    _ countdown: Countdown<Instant>,
    target: Date? = nil,
    renderer: Renderer?,
    tolerance: Duration? = nil,
    finishing: FinishWork?,
    removesWhenSettled: Bool = false,
    at now: Instant
  ) -> (id: EntryID, deliveries: [Delivery]) {
    let index: UInt32
    if let reused = freeIndices.popLast() {
      index = reused
    } else {
      index = UInt32(slab.count)
      slab.append(.vacant)
      incarnations.append(0)
      stamps.append(0)
    }
    slab[Int(index)] = Entry(
      renderer: renderer, onFinish: finishing, countdown: countdown, removesWhenSettled: removesWhenSettled,
      toleranceClass: classIndex(for: tolerance ?? maximumTolerance), target: countdown.isPaused ? nil : target)
    count += 1
    // Taken before processing: a stream's entry that settles at once is released there, and the ID
    // must then name nothing rather than the next countdown to take its place.
    let id = EntryID(index: index, incarnation: incarnations[Int(index)])
    var deliveries: [Delivery] = []
    process(Int(index), at: now, as: .adding, into: &deliveries)
    checkInvariants()
    return (id, deliveries)
  }

  /// Removes a countdown; its completion will not fire. Returns the renderer's closing work.
  @discardableResult
  package mutating func remove(_ id: EntryID) -> [Delivery] {
    guard let entry = entry(id) else { return [] }
    let closing = entry.renderer?.close()
    release(Int(id.index))
    checkInvariants()
    return closing.map { [$0] } ?? []
  }

  /// Changes a countdown (pause, resume, retarget, extend) and re-renders it at once if what it shows
  /// changed. `target` replaces the wall-clock date it follows when given (`.some(nil)` clears it); a
  /// countdown that is paused afterwards follows no date.
  package mutating func update(
    _ id: EntryID,
    at now: Instant,
    target: Date?? = nil,
    _ transform: (Countdown<Instant>) -> Countdown<Instant>
  ) -> [Delivery] {
    guard var entry = entry(id) else { return [] }
    entry.noteOverdue(at: now)
    let before = entry.countdown
    entry.countdown = transform(before)
    if let target {
      entry.target = target
    } else if let date = entry.target, case .running(let oldEnd) = before.state,
      case .running(let newEnd) = entry.countdown.state
    {
      // An extension of a date-based countdown moves the date with it, so re-anchoring keeps it.
      entry.target = date.addingTimeInterval(oldEnd.duration(to: newEnd).timeInterval)
    }
    // Only a running countdown follows a date: a paused one keeps its frozen time whatever the wall
    // clock does, and once resumed it counts that time from the moment it was resumed.
    if entry.countdown.isPaused { entry.target = nil }
    slab[Int(id.index)] = entry
    var deliveries: [Delivery] = []
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// Gives a countdown a (new) renderer, closing the previous one, and renders at once.
  package mutating func attach(
    _ renderer: Renderer,
    tolerance: Duration,
    to id: EntryID,
    at now: Instant
  ) -> [Delivery] {
    guard var entry = entry(id) else { return [] }
    entry.noteOverdue(at: now)
    var deliveries: [Delivery] = []
    if let previous = entry.renderer, previous.identity != renderer.identity, let closing = previous.close() {
      deliveries.append(closing)
    }
    entry.renderer = renderer
    entry.toleranceClass = classIndex(for: tolerance)
    slab[Int(id.index)] = entry
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// Takes a countdown's renderer away; the countdown goes on and its completion still fires.
  package mutating func detach(_ id: EntryID, at now: Instant) -> [Delivery] {
    guard var entry = entry(id), let renderer = entry.renderer else { return [] }
    entry.noteOverdue(at: now)
    entry.renderer = nil
    entry.toleranceClass = classIndex(for: maximumTolerance)
    slab[Int(id.index)] = entry
    var deliveries: [Delivery] = renderer.close().map { [$0] } ?? []
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// From now on removes the entry once it is finished and its display never changes again (at once
  /// if that is already so), closing its renderer.
  package mutating func removeWhenSettled(_ id: EntryID, at now: Instant) -> [Delivery] {
    guard var entry = entry(id) else { return [] }
    entry.noteOverdue(at: now)
    entry.removesWhenSettled = true
    slab[Int(id.index)] = entry
    var deliveries: [Delivery] = []
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// The countdown of a live entry.
  package func countdown(of id: EntryID) -> Countdown<Instant>? {
    entry(id)?.countdown
  }

  /// Whether `id` names a live entry.
  package func contains(_ id: EntryID) -> Bool {
    entry(id) != nil
  }

  /// Whether `id` names a live entry that has a renderer (a subscriber or a bound slot).
  package func hasRenderer(_ id: EntryID) -> Bool {
    entry(id)?.renderer != nil
  }

  /// Re-converts the end of every countdown that follows a wall-clock date (after the wall clock
  /// moved), and re-renders those whose value changed.
  package mutating func retargetDates(at now: Instant, using convert: (Date) -> Instant?) -> [Delivery] {
    var deliveries: [Delivery] = []
    for index in slab.indices {
      guard slab[index].isLive, let target = slab[index].target, let end = convert(target) else { continue }
      var entry = slab[index]
      entry.noteOverdue(at: now)
      entry.countdown = entry.countdown.retargeted(to: end)
      slab[index] = entry
      process(index, at: now, as: .changing, into: &deliveries)
    }
    checkInvariants()
    return deliveries
  }

  // MARK: - Internals

  private func entry(_ id: EntryID) -> Entry? {
    let index = Int(id.index)
    guard index < slab.count, incarnations[index] == id.incarnation, slab[index].isLive else { return nil }
    return slab[index]
  }

  mutating func release(_ index: Int) {
    guard slab[index].isLive else {
      preconditionFailure("Internal inconsistency: releasing a released entry \(index)")
    }
    if slab[index].isQueued { validQueuedItems -= 1 }
    stamps[index] &+= 1
    slab[index] = .vacant
    incarnations[index] &+= 1
    freeIndices.append(UInt32(index))
    count -= 1
  }

  /// Why an entry is processed.
  enum Processing {
    /// Just added: render whatever it shows, and fire the completion at once if it is over.
    case adding
    /// Due at a wake-up.
    case serving
    /// Changed by hand (pause, retarget, a new renderer...): render what changed; a completion it
    /// brought about waits for the next wake-up, so that changes made one after the other at the
    /// same instant count as one (extending by -10 s and then by +15 s does not finish).
    case changing
  }

  /// Renders, fires the completion if due, and queues the entry at its next due instant.
  ///
  /// The entry is changed in place (through `slab[index]`), never copied out and back: an entry
  /// is large, and this runs for every delivered change.
  mutating func process(
    _ index: Int, at now: Instant, as processing: Processing, into deliveries: inout [Delivery]
  ) {
    assert(slab[index].isLive, "Internal inconsistency: processing a released entry \(index)")
    let tolerance = classes[Int(slab[index].toleranceClass)].tolerance
    let (due, settled) = slab[index].step(at: now, as: processing, tolerance: tolerance, into: &deliveries)
    // Invalidate the item already queued for this entry, if any.
    if slab[index].isQueued {
      slab[index].isQueued = false
      validQueuedItems -= 1
    }
    stamps[index] &+= 1
    if settled {
      if let closing = slab[index].renderer?.close() { deliveries.append(closing) }
      release(index)
      return
    }
    if let due {
      enqueue(
        QueueItem(due: due, index: UInt32(index), stamp: stamps[index]), classIndex: Int(slab[index].toleranceClass))
      slab[index].isQueued = true
      validQueuedItems += 1
    }
    compactIfWasteful()
  }

  private mutating func enqueue(_ item: QueueItem, classIndex: Int) {
    queuedItems += 1
    if !classes[classIndex].wheel.insert(item) {
      classes[classIndex].heap.insert(item)
    }
  }

  /// The index of the class of `tolerance`, made if there is none yet.
  private mutating func classIndex(for tolerance: Duration) -> UInt32 {
    if let existing = classes.firstIndex(where: { $0.tolerance == tolerance }) { return UInt32(existing) }
    classes.append(ToleranceClass(tolerance: tolerance))
    return UInt32(classes.count - 1)
  }

  /// Drops stale items (left behind by lazy deletion) when they outnumber the valid ones.
  mutating func compactIfWasteful() {
    guard queuedItems > 4_096, queuedItems > 2 * validQueuedItems else { return }
    let stamps = stamps
    for classIndex in classes.indices {
      let valid = classes[classIndex].heap.unordered.filter { stamps[Int($0.index)] == $0.stamp }
      classes[classIndex].heap = Heap(valid)
      _ = classes[classIndex].wheel.removeAll { stamps[Int($0.index)] != $0.stamp }
    }
    queuedItems = classes.reduce(0) { $0 + $1.count }
  }
}
