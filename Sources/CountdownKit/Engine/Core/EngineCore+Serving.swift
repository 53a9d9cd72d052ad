// Serving a wake-up: the hot loop of the engine. Due items come out of the schedule in batches; the
// common change (a running countdown showing whole units moves to its next value) is handled for a
// whole batch in one pass over the rows' and bindings' storage, taken once for the batch; every other
// case goes through `process`.

extension EngineCore {
  /// The most items served in one pass.
  static var batchSize: Int { 256 }

  /// Serves what is due at `now`: at most `limit` rows per call, earliest slots first; the rest of
  /// what was due waits for the next calls (``isServing``), so that the driver can let go of the lock
  /// in between. One change per subscriber however late the wake-up, never a burst of stale values,
  /// and each due completion once.
  package mutating func serve(at now: Tick, limit: Int = .max, into effects: inout Effects) {
    if !schedule.isServing {
      serveLiveGroups(at: now, into: &effects)
      schedule.beginServe(at: now)
    }
    var served = 0
    while served < limit {
      let batch = schedule.nextDue(upTo: Swift.min(limit - served, Self.batchSize))
      guard !batch.isEmpty else { break }
      batch.withUnsafeBufferPointer { serve($0, at: now, into: &effects) }
      served += batch.count
    }
    compactIfWasteful()
    checkInvariants()
  }

  /// Serves one batch: the common changes in one pass (their changes and their items for the
  /// schedule gathered and handed over at once), then the others one by one.
  ///
  /// The order of changes among rows differs from the batch's (a row's own stays as it was): nothing
  /// depends on it.
  private mutating func serve(_ batch: UnsafeBufferPointer<Schedule.Item>, at now: Tick, into effects: inout Effects) {
    withUnsafeTemporaryAllocation(of: Effects.Change.self, capacity: batch.count) { changes in
      withUnsafeTemporaryAllocation(of: Schedule.LanedItem.self, capacity: batch.count) { queued in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: batch.count) { others in
          let counts = serveCountingDown(batch, at: now, changes: changes, queued: queued, others: others)
          effects.changes.append(contentsOf: UnsafeBufferPointer(rebasing: changes[..<counts.changes]))
          schedule.insert(
            contentsOf: UnsafeBufferPointer(rebasing: queued[..<counts.queued]), limit: rows.storedCapacity)
          staleItems = Swift.max(staleItems - counts.stale, 0)
          for position in others[..<counts.others] {
            let row = Int(batch[position].row)
            var head = rows[row]
            // Its one valid item was just taken out of the schedule.
            head.flags.isQueued = false
            process(row, head, at: now, .serving, into: &effects)
          }
        }
      }
    }
  }

  /// Serves the common changes of `batch` (see ``CountingDown``), with the rows' and bindings' storage
  /// taken once for the batch.
  private mutating func serveCountingDown(
    _ batch: UnsafeBufferPointer<Schedule.Item>, at now: Tick, changes: UnsafeMutableBufferPointer<Effects.Change>,
    queued: UnsafeMutableBufferPointer<Schedule.LanedItem>, others: UnsafeMutableBufferPointer<Int>
  ) -> CountingDown.Counts {
    rows.withUnsafeServingColumns { heads, totals in
      bindings.withUnsafeMutableItems { bindings in
        classes.countdownUnits.withUnsafeBufferPointer { units in
          classes.lanes.withUnsafeBufferPointer { lanes in
            let (touched, classes) = Self.prefetch(
              batch, heads: UnsafeBufferPointer(heads), bindings: UnsafeBufferPointer(bindings))
            prefetched &+= touched
            precondition(classes <= units.count && classes <= lanes.count, "Internal inconsistency: a binding's class")
            let pass = CountingDown(heads: heads, bindings: bindings, units: units, lanes: lanes, totals: totals)
            return pass.serve(batch, at: now, changes: changes, queued: queued, others: others)
          }
        }
      }
    }
  }

  /// Reads the rows and bindings `batch` will process, one pass each, before processing them: the
  /// reads do not depend on one another, so the processor fetches their cache lines in parallel
  /// instead of waiting for each in turn (a row's head and binding are the two scattered reads of a
  /// change). Checks that every row and binding it reads is within bounds; returns what it read, and
  /// the number of classes the bindings' classes fit in (one more than the largest).
  private static func prefetch(
    _ batch: UnsafeBufferPointer<Schedule.Item>, heads: UnsafeBufferPointer<Rows.Head>,
    bindings: UnsafeBufferPointer<Bindings.Binding>
  ) -> (touched: UInt32, classes: Int) {
    var touched: UInt32 = 0
    for item in batch {
      precondition(Int(item.row) < heads.count, "Internal inconsistency: an item for row \(item.row), not a row")
      touched &+= heads[Int(item.row)].binding
    }
    var classes: UInt32 = 0
    for item in batch where heads[Int(item.row)].flags.hasBinding {
      let index = Int(heads[Int(item.row)].binding)
      precondition(index < bindings.count, "Internal inconsistency: row \(item.row) has no binding \(index)")
      let binding = bindings[index]
      touched &+= binding.sink
      classes = Swift.max(classes, binding.displayClass + 1)
    }
    return (touched, Int(classes))
  }
}

extension EngineCore {
  /// The fast path of the serving loop: the common change (a running row with time left whose display
  /// counts down whole units, seconds or minutes, moves to its next value), for a whole batch in one
  /// pass over the engine's storage.
  ///
  /// Works through unsafe buffers taken once per batch (no uniqueness or bounds check per row). Every
  /// index it uses is within bounds by construction: ``EngineCore`` checked the batch's rows and
  /// bindings, and the bindings' display classes against `units` and `lanes`, before making it; a row's
  /// binding index and a binding's class do not change during the pass.
  struct CountingDown {
    let heads: UnsafeMutableBufferPointer<Rows.Head>
    let bindings: UnsafeMutableBufferPointer<Bindings.Binding>
    /// Each display class's countdown unit (0: not a countdown in whole units), and its lane.
    let units: UnsafeBufferPointer<Tick>
    let lanes: UnsafeBufferPointer<Int>
    let totals: LazyColumn<Tick>.Reader

    /// How much of each buffer a pass filled, and how many stale items it skipped.
    struct Counts {
      var changes = 0
      var queued = 0
      var others = 0
      var stale = 0
    }

    /// Serves what it can of `batch`: writes the changes to `changes` and the rows' next items to
    /// `queued`; skips stale items (counting them) and leaves every other case untouched, its position
    /// in the batch written to `others`, for ``EngineCore/process(_:_:at:_:into:)``. Each buffer has room
    /// for the whole batch.
    ///
    /// What it does to a row is what `process` would: the change the display's rule gives
    /// (``RoundedRule/step(remaining:)``, as `DisplayPlan.evaluate` does), the row due at its next
    /// change or at its end, whichever comes first. Anything that would saturate goes to `process`.
    func serve(
      _ batch: UnsafeBufferPointer<Schedule.Item>, at now: Tick, changes: UnsafeMutableBufferPointer<Effects.Change>,
      queued: UnsafeMutableBufferPointer<Schedule.LanedItem>, others: UnsafeMutableBufferPointer<Int>
    ) -> Counts {
      var counts = Counts()
      for position in batch.indices {
        let item = batch[position]
        let row = Int(item.row)
        var head = heads[row]
        guard head.stamp == item.stamp, head.flags.isLive else {
          counts.stale &+= 1
          continue
        }
        let binding = head.flags.isBoundAndRunning ? bindings[Int(head.binding)] : nil
        guard let binding, let next = step(binding, head, at: now, into: changes, &counts.changes, total: row) else {
          others[counts.others] = position
          counts.others &+= 1
          continue
        }
        head.stamp &+= 1
        head.flags.isQueued = true
        heads[row] = head
        queued.initializeElement(
          at: counts.queued,
          to: Schedule.LanedItem(
            item: Schedule.Item(due: next, row: item.row, stamp: head.stamp), lane: lanes[Int(binding.displayClass)]))
        counts.queued &+= 1
      }
      return counts
    }

    /// Moves bound row `head` on at `now` if it is the common case: writes its change (if what it shows
    /// changed) to `changes` at `count`, and returns when it is due next; `nil` (and nothing done) for
    /// any other case.
    @inline(__always)
    private func step(
      _ binding: Bindings.Binding, _ head: Rows.Head, at now: Tick,
      into changes: UnsafeMutableBufferPointer<Effects.Change>,
      _ count: inout Int, total row: Int
    ) -> Tick? {
      var binding = binding
      let unit = units[Int(binding.displayClass)]
      let (remaining, late) = head.end.subtractingReportingOverflow(now)
      guard unit > 0, remaining > 0, !late, !binding.isStream else { return nil }
      // The next change is below `remaining`, so it falls after `now` and at most at the end.
      guard let (value, next) = RoundedRule(unit: unit).step(remaining: remaining) else { return nil }
      if !binding.lastShowedRunning || value != binding.last {
        binding.last = value
        binding.setLast(paused: false, finished: false)
        bindings[Int(head.binding)] = binding
        changes.initializeElement(
          at: count,
          to: Effects.Change(
            sink: binding.sink, displayClass: binding.displayClass, paused: false, finished: false, value: value,
            remaining: remaining, total: totals[row]))
        count &+= 1
      }
      return head.end - next
    }
  }
}
