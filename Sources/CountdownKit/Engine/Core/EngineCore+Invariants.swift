import Synchronization

// Invariant checks, compiled only with `-DCOUNTDOWNKIT_INTERNAL_CHECKS` (see Package.swift): they walk
// every row and every queued item after each operation, so they are far too slow for production.

extension EngineCore {
  /// Whether the invariant checks are compiled in: tests that hammer the engine scale down with them.
  package static var checksInvariants: Bool {
    #if COUNTDOWNKIT_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  #if COUNTDOWNKIT_INTERNAL_CHECKS
    /// How many times ``checkInvariants()`` was called, in every core of the process.
    private static let checkCalls = Atomic<Int>(0)

    /// Traps if the core's bookkeeping is inconsistent.
    ///
    /// A full check walks every row and every queued item. Up to 256 of them it runs after every
    /// operation; above, after one operation in `size / 256 + 1`, so that a test of a hundred
    /// thousand rows (one board upsert checks after each row) costs about 256 steps per operation
    /// instead of a hundred thousand, and still checks every size it goes through.
    package func checkInvariants() {
      let calls = Self.checkCalls.add(1, ordering: .relaxed).newValue
      let size = rows.capacity + schedule.count
      guard size <= 256 || calls % (size / 256 + 1) == 0 else { return }
      var live = 0
      var bound = 0
      for row in 0..<rows.capacity where rows[row].flags.isLive {
        live += 1
        let head = rows[row]
        if head.flags.hasBinding {
          bound += 1
          let binding = bindings[head.binding]
          precondition(classes.isLive(binding.displayClass), "Internal inconsistency: row \(row)'s class is gone")
        }
        switch head.flags.completion {
        case .armed where head.flags.isInGroup:
          precondition(!head.flags.isQueued, "Internal inconsistency: row \(row) is in a group and scheduled")
        case .armed where !head.flags.isPaused && head.end != Ticks.max, .pending:
          precondition(
            head.flags.isQueued, "Internal inconsistency: row \(row)'s completion is due but not scheduled: \(head)")
        case .armed, .fired:
          break
        }
      }
      precondition(live == rows.count, "Internal inconsistency: \(live) live rows, count says \(rows.count)")
      precondition(bound == bindings.count, "Internal inconsistency: \(bound) bound rows, \(bindings.count) bindings")
      var valid = [Int](repeating: 0, count: rows.capacity)
      for item in schedule.queuedItems + schedule.servingItems {
        let row = Int(item.row)
        guard rows[row].flags.isLive, rows[row].stamp == item.stamp else { continue }
        valid[row] += 1
      }
      for row in 0..<rows.capacity where rows[row].flags.isLive {
        let expected = rows[row].flags.isQueued ? 1 : 0
        precondition(valid[row] == expected, "Internal inconsistency: row \(row) has \(valid[row]) valid items")
      }
      precondition(
        schedule.count == schedule.queuedItems.count + schedule.servingItems.count,
        "Internal inconsistency: the schedule's count is off")
    }
  #else
    @inline(__always)
    package func checkInvariants() {}
  #endif
}
