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
  /// What it does to a row is what `process` would: the change `DisplayPlan.evaluate` gives, the
  /// row due at its display's next change or at its end, whichever comes first. Anything that would
  /// saturate goes to `process`.
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
    // Whole units left, rounded up (at least one, as time is left): the value. The previous multiple
    // of the unit is below `remaining`, so the next change falls after `now` and at most at the end.
    let (quotient, rest) = remaining.quotientAndRemainder(dividingBy: unit)
    let (value, overflow) = unit.multipliedReportingOverflow(by: rest > 0 ? quotient + 1 : quotient)
    guard !overflow, value <= Ticks.max else { return nil }
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
    return head.end - (value - unit)
  }
}
