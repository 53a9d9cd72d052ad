package import Foundation
import HeapModule

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
/// retarget moves the end into the future again). Due instants wait in min-heaps, one per tolerance
/// class, with lazy deletion: each queued item carries the entry's stamp at the time it was queued, and
/// an item whose stamp no longer matches is skipped when it surfaces.
///
/// Coalescing: time is cut, per tolerance class, into slots one tolerance wide (counted from the
/// engine's origin). The driver wakes at the end of the earliest slot that holds a due instant and
/// serves *everything* due by that moment, so a class causes at most one wake-up per tolerance, never
/// serves a change early, and serves each at most one tolerance late. Near due instants wait in the
/// class's ``Wheel`` (a slot is an array), far or overdue ones in its heap.
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
      wheel = Wheel(width: tolerance)
    }

    /// The items held, stale ones included.
    var count: Int { wheel.count + heap.count }
  }

  private(set) var entries: [Entry?] = []
  private(set) var incarnations: [UInt32] = []
  /// For each place, the stamp of its entry's one valid queued item or, for a vacant place, the stamp
  /// its next occupant starts from. Stamps go on across occupants, so that an item a removed countdown
  /// left in a heap can never match the stamp of the one that reuses its place. Kept apart from the
  /// entries so that telling a stale item from a valid one touches four bytes, not an entry.
  private(set) var stamps: [UInt32] = []
  private var freeIndices: [UInt32] = []
  private(set) var classes: [ToleranceClass] = []
  private var queuedItems = 0
  private var validQueuedItems = 0
  /// The items one wake-up takes from a wheel; kept between wake-ups for its capacity.
  private var batch: [QueueItem] = []

  /// The largest lateness allowed; also the tolerance of entries without a display period.
  package let maximumTolerance: Duration

  /// The number of live entries.
  package private(set) var count = 0

  package init(maximumTolerance: Duration) {
    precondition(maximumTolerance > .zero, "The engine's tolerance must be positive, got \(maximumTolerance)")
    self.maximumTolerance = maximumTolerance
  }

  /// The lateness allowed for a display with `period`: a tenth of it, between 1 ms and the maximum.
  package func tolerance(forPeriod period: Duration?) -> Duration {
    guard let period else { return maximumTolerance }
    return Swift.min(Swift.max(period / 10, .milliseconds(1)), maximumTolerance)
  }

  // MARK: - Mutations

  /// Adds a countdown, renders it at once (if it has a renderer) and fires its completion if it is
  /// already finished.
  package mutating func add(
    _ countdown: Countdown<Instant>,
    target: Date? = nil,
    renderer: (any Renderer)?,
    tolerance: Duration? = nil,
    onFinish: [Delivery],
    removesWhenSettled: Bool = false,
    at now: Instant
  ) -> (id: EntryID, deliveries: [Delivery]) {
    let index: UInt32
    if let reused = freeIndices.popLast() {
      index = reused
    } else {
      index = UInt32(entries.count)
      entries.append(nil)
      incarnations.append(0)
      stamps.append(0)
    }
    entries[Int(index)] = Entry(
      countdown: countdown, target: countdown.isPaused ? nil : target, renderer: renderer, onFinish: onFinish,
      removesWhenSettled: removesWhenSettled, tolerance: tolerance ?? maximumTolerance)
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
    entries[Int(id.index)] = entry
    var deliveries: [Delivery] = []
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// Gives a countdown a (new) renderer, closing the previous one, and renders at once.
  package mutating func attach(
    _ renderer: any Renderer,
    tolerance: Duration,
    to id: EntryID,
    at now: Instant
  ) -> [Delivery] {
    guard var entry = entry(id) else { return [] }
    entry.noteOverdue(at: now)
    var deliveries: [Delivery] = []
    if let previous = entry.renderer, previous !== renderer, let closing = previous.close() {
      deliveries.append(closing)
    }
    entry.renderer = renderer
    entry.tolerance = tolerance
    entries[Int(id.index)] = entry
    process(Int(id.index), at: now, as: .changing, into: &deliveries)
    checkInvariants()
    return deliveries
  }

  /// Takes a countdown's renderer away; the countdown goes on and its completion still fires.
  package mutating func detach(_ id: EntryID, at now: Instant) -> [Delivery] {
    guard var entry = entry(id), let renderer = entry.renderer else { return [] }
    entry.noteOverdue(at: now)
    entry.renderer = nil
    entry.tolerance = maximumTolerance
    entries[Int(id.index)] = entry
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
    entries[Int(id.index)] = entry
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
    for index in entries.indices {
      guard var entry = entries[index], let target = entry.target, let end = convert(target) else { continue }
      entry.noteOverdue(at: now)
      entry.countdown = entry.countdown.retargeted(to: end)
      entries[index] = entry
      process(index, at: now, as: .changing, into: &deliveries)
    }
    checkInvariants()
    return deliveries
  }

  // MARK: - Time

  /// Serves every entry due at or before `now`: one delivery per changed subscriber (however late the
  /// wake-up, never a burst of stale values) and each due completion once.
  package mutating func advance(to now: Instant) -> [Delivery] {
    var deliveries: [Delivery] = []
    var due = batch
    batch = []
    var classIndex = 0
    while classIndex < classes.count {
      due.removeAll(keepingCapacity: true)
      classes[classIndex].wheel.takeDue(at: now, into: &due)
      queuedItems -= due.count
      for item in due where stamps[Int(item.index)] == item.stamp {
        process(Int(item.index), at: now, as: .serving, into: &deliveries)
      }
      while let top = classes[classIndex].heap.min, top.due <= now {
        classes[classIndex].heap.removeMin()
        queuedItems -= 1
        let index = Int(top.index)
        guard stamps[index] == top.stamp else { continue }
        process(index, at: now, as: .serving, into: &deliveries)
      }
      classIndex += 1
    }
    due.removeAll(keepingCapacity: true)
    batch = due
    checkInvariants()
    return deliveries
  }

  /// When the driver should wake next: the end of the earliest slot (one tolerance wide) that holds a
  /// due instant; `nil` when nothing is scheduled.
  package mutating func nextWake() -> Instant? {
    var earliest: Instant?
    let stamps = stamps
    for classIndex in classes.indices {
      while let top = classes[classIndex].heap.min, stamps[Int(top.index)] != top.stamp {
        classes[classIndex].heap.removeMin()
        queuedItems -= 1
      }
      queuedItems -= classes[classIndex].wheel.dropStaleFront { stamps[Int($0.index)] != $0.stamp }
      let fromHeap = classes[classIndex].heap.min.map { classes[classIndex].wheel.slotEnd(of: $0.due) }
      for wake in [classes[classIndex].wheel.nextServe, fromHeap] {
        guard let wake else { continue }
        if earliest.map({ wake < $0 }) ?? true { earliest = wake }
      }
    }
    return earliest
  }

  // MARK: - Internals

  private func entry(_ id: EntryID) -> Entry? {
    let index = Int(id.index)
    guard index < entries.count, incarnations[index] == id.incarnation else { return nil }
    return entries[index]
  }

  mutating func release(_ index: Int) {
    guard let entry = entries[index] else {
      preconditionFailure("Internal inconsistency: releasing a released entry \(index)")
    }
    if entry.isQueued { validQueuedItems -= 1 }
    stamps[index] &+= 1
    entries[index] = nil
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
  /// The entry is changed in place (through `entries[index]!`), never copied out and back: an entry
  /// is large, and this runs for every delivered change.
  private mutating func process(
    _ index: Int, at now: Instant, as processing: Processing, into deliveries: inout [Delivery]
  ) {
    guard entries[index] != nil else {
      preconditionFailure("Internal inconsistency: processing a released entry \(index)")
    }
    let (due, settled) = entries[index]!.step(at: now, as: processing, into: &deliveries)
    // Invalidate the item already queued for this entry, if any.
    if entries[index]!.isQueued {
      entries[index]!.isQueued = false
      validQueuedItems -= 1
    }
    stamps[index] &+= 1
    if settled {
      if let closing = entries[index]!.renderer?.close() { deliveries.append(closing) }
      release(index)
      return
    }
    if let due {
      enqueue(
        QueueItem(due: due, index: UInt32(index), stamp: stamps[index]), tolerance: entries[index]!.tolerance)
      entries[index]!.isQueued = true
      validQueuedItems += 1
    }
    compactIfWasteful()
  }

  private mutating func enqueue(_ item: QueueItem, tolerance: Duration) {
    queuedItems += 1
    let classIndex: Int
    if let existing = classes.firstIndex(where: { $0.tolerance == tolerance }) {
      classIndex = existing
    } else {
      classIndex = classes.count
      classes.append(ToleranceClass(tolerance: tolerance))
    }
    if !classes[classIndex].wheel.insert(item) {
      classes[classIndex].heap.insert(item)
    }
  }

  /// Drops stale items (left behind by lazy deletion) when they outnumber the valid ones.
  private mutating func compactIfWasteful() {
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

extension Scheduler {
  /// Removes every entry (shutting down), returning the renderers' closing work.
  package mutating func removeAll() -> [Delivery] {
    var closing: [Delivery] = []
    for index in entries.indices {
      guard let entry = entries[index] else { continue }
      if let delivery = entry.renderer?.close() { closing.append(delivery) }
      release(index)
    }
    classes = []
    queuedItems = 0
    validQueuedItems = 0
    return closing
  }
}
