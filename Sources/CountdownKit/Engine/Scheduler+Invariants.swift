// Invariant checks, compiled only with `-DCOUNTDOWNKIT_INTERNAL_CHECKS` (see Package.swift): they walk
// every entry and every queued item after each mutation, so they are far too slow for production.

#if COUNTDOWNKIT_INTERNAL_CHECKS
  import HeapModule
#endif

extension Scheduler {
  /// Whether the invariant checks are compiled in: tests that hammer the engine scale down with them.
  package static var checksInvariants: Bool {
    #if COUNTDOWNKIT_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  #if COUNTDOWNKIT_INTERNAL_CHECKS
    /// Traps if the scheduler's bookkeeping is inconsistent.
    package func checkInvariants() {
      let entries = slab.map { $0.isLive ? $0 : nil }
      let live = entries.filter { $0 != nil }.count
      precondition(live == count, "Internal inconsistency: \(live) live entries, count says \(count)")
      precondition(incarnations.count == entries.count, "Internal inconsistency: incarnations out of step")
      precondition(stamps.count == entries.count, "Internal inconsistency: stamps out of step")
      var validItems = 0
      for (classIndex, queueClass) in classes.enumerated() {
        for item in queueClass.heap.unordered + Array(queueClass.wheel.items) {
          guard let entry = entries[Int(item.index)], stamps[Int(item.index)] == item.stamp else { continue }
          precondition(entry.isQueued, "Internal inconsistency: a valid item for an entry that is not queued")
          precondition(Int(entry.toleranceClass) == classIndex, "Internal inconsistency: item in the wrong class")
          validItems += 1
        }
      }
      // Items taken by a serve under way are still valid items of queued entries.
      for item in batch[batchPosition...] where stamps[Int(item.index)] == item.stamp {
        precondition(
          entries[Int(item.index)]?.isQueued == true,
          "Internal inconsistency: a taken item for an entry that is not queued")
        validItems += 1
      }
      let queuedEntries = entries.filter { $0?.isQueued == true }.count
      precondition(
        validItems == queuedEntries,
        "Internal inconsistency: \(validItems) valid items for \(queuedEntries) queued entries")
      for entry in entries.compactMap({ $0 }) {
        switch entry.completion {
        case .armed where !entry.countdown.isPaused, .pending:
          precondition(entry.isQueued, "Internal inconsistency: a countdown whose completion is due is not scheduled")
        case .armed, .fired:
          break
        }
      }
    }
  #else
    @inline(__always)
    package func checkInvariants() {}
  #endif
}
