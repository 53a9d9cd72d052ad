// Processing a row: the hot loop of the engine. For each row that is due (or changed by hand) it
// computes what the row shows, emits a change if that differs from what was last delivered, moves the
// completion on, and queues the row at its next due tick.

extension EngineCore {
  /// Why a row is processed.
  package enum Reason {
    /// Just added: render whatever it shows, and fire the completion at once if it is over.
    case adding
    /// Due at a wake-up.
    case serving
    /// Changed by hand (pause, retarget, a new binding...): render what changed; a completion it
    /// brought about waits for the next wake-up (see ``RowFlags/Completion/pending``).
    case changing
  }

  /// Renders, fires the completion if due, and queues the row at its next due tick (or releases it,
  /// once it has settled and nobody holds it).
  mutating func process(_ row: Int, at now: Tick, _ reason: Reason, into effects: inout Effects) {
    process(row, rows[row], at: now, reason, into: &effects)
  }

  /// ``process(_:at:_:into:)`` with the row's head already read: the row is read once and written
  /// once.
  mutating func process(_ row: Int, _ head: Rows.Head, at now: Tick, _ reason: Reason, into effects: inout Effects) {
    var head = head
    let wasPending = head.flags.completion == .pending
    let remaining = Ticks.difference(head.end, head.flags.isPaused ? rows.pausedAt[row] : now)
    var due = Ticks.max
    var lane = classes.lanes[0]
    let changesBefore = effects.changes.count
    if head.flags.hasBinding {
      let force = reason == .adding || (reason == .changing && bindings[head.binding].deliversEveryChange)
      (due, lane) = render(row, head, remaining: remaining, at: now, force: force, into: &effects)
    }
    if head.flags.owner != 0, isLive(owner: head.flags.owner) {
      let next = renderLive(row, &head, remaining: remaining, at: now, force: reason == .adding)
      if next < due {
        due = next
        if !head.flags.hasBinding, let columns = live[Int(head.flags.owner)] {
          lane = classes.lanes[Int(columns.displayClass)]
        }
      }
    }
    switch (remaining > 0, head.flags.completion, reason) {
    case (true, _, _): head.flags.completion = .armed
    case (false, .fired, _), (false, .pending, .changing): break
    case (false, .armed, .changing): head.flags.completion = .pending
    case (false, .armed, _), (false, .pending, _):
      head.flags.completion = .fired
      let binding = head.flags.hasBinding ? bindings[head.binding] : nil
      if head.flags.owner == 0, effects.changes.count > changesBefore {
        // The main-actor change that shows zero was just made: it carries the completion.
        effects.changes[changesBefore].finishesSubscriber = true
      } else {
        effects.append(
          .finished(
            row: UInt32(row), owner: head.flags.owner,
            sink: binding.map { SinkKey(displayClass: $0.displayClass, sink: $0.sink) },
            isStream: binding?.isStream ?? false))
      }
    }
    // Due at its end; when over but not yet reported: since its end if it was over before this change
    // (the driver owed it already), since now if this change brought it to zero.
    switch head.flags.completion {
    // A row in a phase group is served by its group, its completion included.
    case .armed where head.flags.isInGroup: break
    case .armed where !head.flags.isPaused: due = Swift.min(due, head.end)
    case .pending: due = Swift.min(due, wasPending && !head.flags.isPaused ? Swift.min(head.end, now) : now)
    case .armed, .fired: break
    }
    if head.flags.isQueued { staleItems += 1 }
    head.stamp &+= 1
    head.flags.isQueued = due != Ticks.max
    rows[row] = head
    if due == Ticks.max {
      if head.flags.releasesWhenSettled, head.flags.completion == .fired, !head.flags.isPaused {
        // A main-actor change made just now is the subscriber's last: it carries the release.
        let last = effects.changes.count > changesBefore ? changesBefore : nil
        release(row, cancelled: false, lastChange: last, into: &effects)
      }
      return
    }
    schedule.insert(
      Schedule.Item(due: due, row: UInt32(row), stamp: head.stamp), lane: lane, limit: rows.storedCapacity)
  }

  /// Renders bound row `row`: emits a change if what it shows differs from what was last delivered.
  ///
  /// - Returns: the tick of its display's next change (`Ticks.max`: never) and the lane it is due in.
  private mutating func render(
    _ row: Int, _ head: Rows.Head, remaining: Tick, at now: Tick, force: Bool, into effects: inout Effects
  ) -> (due: Tick, lane: Int) {
    var binding = bindings[head.binding]
    let displayClass = binding.displayClass
    let lane = classes.lanes[Int(displayClass)]
    guard displayClass != 0 else { return (Ticks.max, lane) }
    let paused = head.flags.isPaused
    let finished = remaining <= 0
    let value: Int64
    let next: Tick?
    var changed = force || !binding.hasLast || paused != binding.lastPaused || finished != binding.lastFinished
    if let plan = classes.plans[Int(displayClass)] {
      (value, next) = plan.evaluate(remaining: remaining, paused: paused)
      changed = changed || value != binding.last
      binding.last = value
    } else if let step = classes.generic[Int(displayClass)]?.step(head.binding, remaining: remaining) {
      value = 0
      next = paused ? nil : step.next
      changed = changed || step.changed
    } else {
      preconditionFailure("Internal inconsistency: display class \(displayClass) of row \(row) has no way to render")
    }
    if changed {
      binding.setLast(paused: paused, finished: finished)
      let change = Effects.Change(
        sink: binding.sink, displayClass: displayClass, paused: paused, finished: finished, value: value,
        remaining: remaining, total: rows.totals[row])
      if binding.isStream { effects.streamChanges.append(change) } else { effects.changes.append(change) }
      bindings[head.binding] = binding
    }
    guard let next else { return (Ticks.max, lane) }
    // A display that breaks its contract (a next change not below the current remaining time) is
    // looked at again a tolerance later instead of being served over and over at `now`.
    let change = Ticks.difference(head.end, next)
    return (change > now ? change : Ticks.sum(now, schedule.tolerance(ofLane: lane)), lane)
  }

  /// Whether a serve is under way (rows due at the last ``serve(at:limit:into:)`` are still waiting).
  package var isServing: Bool { schedule.isServing }

  /// When the driver should wake next: the end of the earliest slot with a valid item; `nil` when
  /// nothing is scheduled. While a serve is under way, a tick already past.
  package mutating func nextWake() -> Tick? {
    let rows = rows
    let queued = schedule.count
    defer { staleItems = Swift.max(staleItems - (queued - schedule.count), 0) }
    let scheduled = schedule.nextWake { item in
      rows[Int(item.row)].stamp != item.stamp || !rows[Int(item.row)].flags.isLive
    }
    guard let groups = nextLiveWake() else { return scheduled }
    return Swift.min(scheduled ?? groups, groups)
  }

  /// Drops stale items when they outnumber the valid ones.
  mutating func compactIfWasteful() {
    guard staleItems > 4_096, staleItems > schedule.count - staleItems else { return }
    let rows = rows
    schedule.compact { item in rows[Int(item.row)].stamp != item.stamp || !rows[Int(item.row)].flags.isLive }
    staleItems = 0
  }

  /// Removes every row (shutting down); their bindings are released as cancelled.
  package mutating func removeAll(into effects: inout Effects) {
    for row in 0..<rows.capacity where rows[row].flags.isLive { release(row, cancelled: true, into: &effects) }
    live = []
    schedule.removeAll()
    staleItems = 0
  }
}
