// Serving: what the driver calls at each wake-up, and shutting down.

import HeapModule

extension Scheduler {
  /// Serves every entry due at or before `now`: one delivery per changed subscriber (however late the
  /// wake-up, never a burst of stale values) and each due completion once.
  ///
  /// At most `limit` entries are processed per call: the rest of what was due stays taken and is
  /// processed by the next calls (``isServing`` says so), earliest first, so that the driver can let go
  /// of the engine's lock (and hand the first deliveries to the main actor) in between.
  package mutating func advance(to now: Instant, limit: Int = .max) -> [Delivery] {
    if batchPosition >= batch.count {
      var taken = batch
      batch = []
      taken.removeAll(keepingCapacity: true)
      for classIndex in classes.indices {
        classes[classIndex].wheel.takeDue(at: now, into: &taken)
        while let top = classes[classIndex].heap.min, top.due <= now {
          taken.append(classes[classIndex].heap.removeMin())
        }
      }
      queuedItems -= taken.count
      // The longest waiting first. A slot's items are mostly in order already (a seconds display
      // comes back in the order it was served), which the standard library's sort is fast on.
      taken.sort()
      batch = taken
      batchPosition = 0
    }
    var deliveries: [Delivery] = []
    var processed = 0
    while batchPosition < batch.count, processed < limit {
      let item = batch[batchPosition]
      batchPosition += 1
      guard stamps[Int(item.index)] == item.stamp else { continue }
      process(Int(item.index), at: now, as: .serving, into: &deliveries)
      processed += 1
    }
    checkInvariants()
    return deliveries
  }

  /// Whether a serve is under way: entries that were due at the last ``advance(to:limit:)`` are still
  /// waiting to be processed.
  package var isServing: Bool { batchPosition < batch.count }

  /// When the driver should wake next: the end of the earliest slot that holds a due instant (see
  /// ``Wheel``); `nil` when nothing is scheduled. While a serve is under way, an instant already past.
  package mutating func nextWake() -> Instant? {
    if isServing { return batch[batchPosition].due }
    var earliest: Instant?
    let stamps = stamps
    for classIndex in classes.indices {
      while let top = classes[classIndex].heap.min, stamps[Int(top.index)] != top.stamp {
        classes[classIndex].heap.removeMin()
        queuedItems -= 1
      }
      queuedItems -= classes[classIndex].wheel.dropStaleFront { stamps[Int($0.index)] != $0.stamp }
      if let wake = classes[classIndex].wheel.nextServe, earliest.map({ wake < $0 }) ?? true {
        earliest = wake
      }
      if let top = classes[classIndex].heap.min {
        let wake = classes[classIndex].wheel.slotEnd(of: top.due)
        if earliest.map({ wake < $0 }) ?? true { earliest = wake }
      }
    }
    return earliest
  }

  /// Removes every entry (shutting down), returning the renderers' closing work.
  package mutating func removeAll() -> [Delivery] {
    var closing: [Delivery] = []
    for index in slab.indices {
      guard slab[index].isLive else { continue }
      if let delivery = slab[index].renderer?.close() { closing.append(delivery) }
      release(index)
    }
    classes = []
    batch = []
    batchPosition = 0
    queuedItems = 0
    validQueuedItems = 0
    return closing
  }
}
