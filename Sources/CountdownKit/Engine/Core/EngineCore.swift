/// The engine's state machine: rows, bindings, display classes and the schedule, in ticks.
///
/// Pure and synchronous: every operation takes `now` and appends what must be delivered to an
/// ``Effects`` buffer, as data. It never reads a clock, never locks, never calls out (but for the
/// displays that have no plan, whose pure `value` and `nextChange` it calls). ``CountdownEngine`` wraps
/// it in a lock and a driver task; tests drive it with plain ticks.
@usableFromInline
package struct EngineCore: Sendable {
  package var rows = Rows()
  package var bindings = Bindings()
  package var schedule = Schedule()
  package var classes: DisplayClasses
  /// The live values of the boards that keep every row's value, by board (a row's owner).
  package var live: [LiveColumns?] = []
  /// The largest lateness allowed, and the tolerance of completions of rows that show nothing.
  package let maximumTolerance: Tick
  /// Items queued for rows that have since been re-queued or released (see ``compactIfWasteful()``).
  var staleItems = 0
  /// What the prefetch passes read, kept so that the reads are not optimised away.
  var prefetched: UInt32 = 0

  /// A core whose tolerances are at most `maximumTolerance` ticks.
  package init(maximumTolerance: Tick) {
    precondition(maximumTolerance > 0, "The engine's tolerance must be positive, got \(maximumTolerance) ns")
    self.maximumTolerance = maximumTolerance
    var schedule = Schedule()
    classes = DisplayClasses(completionLane: schedule.lane(forTolerance: maximumTolerance))
    self.schedule = schedule
  }

  /// The lateness allowed for a display with `period`: a tenth of it, rounded down to a whole
  /// millisecond, between 1 ms and the maximum.
  ///
  /// Rounded so that displays with slightly different periods (rings of different sizes, say) share a
  /// lane: there are at most as many lanes as milliseconds in the maximum tolerance.
  package func tolerance(forPeriod period: Duration?) -> Tick {
    guard let period else { return maximumTolerance }
    let milliseconds = Swift.max(Ticks.floor(period / 10) / 1_000_000, 1)
    let (tolerance, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
    return overflow ? maximumTolerance : Swift.min(tolerance, maximumTolerance)
  }

  /// A new display class for a display with `plan` and `period`; `generic` is its generic path when
  /// `plan` is nil.
  package mutating func addClass(plan: DisplayPlan?, period: Duration?, generic: (any GenericValues)?) -> UInt32 {
    precondition(
      (plan == nil) == (generic != nil), "Internal inconsistency: a display class needs a plan or a generic path")
    return classes.insert(plan: plan, lane: schedule.lane(forTolerance: tolerance(forPeriod: period)), generic: generic)
  }

  // MARK: - Rows

  /// What a new row starts as.
  @usableFromInline
  package struct RowSpec {
    @usableFromInline package var end: Tick
    /// When the row was paused, for a row that starts paused.
    @usableFromInline package var pausedAt: Tick?
    @usableFromInline package var total: Tick?
    /// The wall-clock date (seconds since 2001) the end came from.
    @usableFromInline package var target: Double?
    @usableFromInline package var owner: UInt16 = 0
    @usableFromInline package var releasesWhenSettled = false
    @usableFromInline package var isPausedOnItsOwn = false

    @inlinable
    package init(end: Tick, pausedAt: Tick? = nil, total: Tick? = nil, target: Double? = nil) {
      self.end = end
      self.pausedAt = pausedAt
      self.total = total
      self.target = target
    }
  }

  /// Adds a row and, when `binding` is given, binds it; renders at once and fires the completion if the
  /// countdown is already over.
  @usableFromInline
  package mutating func add(
    _ spec: RowSpec, binding: Bindings.Binding? = nil, at now: Tick, into effects: inout Effects
  ) -> Int {
    var flags = RowFlags()
    flags.owner = spec.owner
    flags.releasesWhenSettled = spec.releasesWhenSettled
    let row = rows.allocate(end: spec.end, flags: flags)
    write(spec, to: row)
    if let binding { attach(binding, to: row) }
    process(row, at: now, .adding, into: &effects)
    compactIfWasteful()
    checkInvariants()
    return row
  }

  /// Gives `row` a binding (taking over from one it had, which is released as cancelled) and renders.
  package mutating func bind(_ row: Int, to binding: Bindings.Binding, at now: Tick, into effects: inout Effects) {
    noteOverdue(row, at: now)
    if rows[row].flags.hasBinding { detach(row, cancelled: true, into: &effects) }
    if rows[row].flags.isInGroup { leaveLiveGroup(row) }
    attach(binding, to: row)
    process(row, at: now, .changing, into: &effects)
    checkInvariants()
  }

  /// Takes `row`'s binding away (a slot letting go); the countdown goes on and still completes.
  package mutating func unbind(_ row: Int, at now: Tick, into effects: inout Effects) {
    guard rows[row].flags.hasBinding else { return }
    noteOverdue(row, at: now)
    detach(row, cancelled: true, into: &effects)
    process(row, at: now, .changing, into: &effects)
    checkInvariants()
  }

  /// Removes `row`: no more deliveries (those on their way are dropped), no completion.
  @usableFromInline
  package mutating func remove(_ row: Int, into effects: inout Effects) {
    release(row, cancelled: true, into: &effects)
    checkInvariants()
  }

  /// A change made by hand to a row's countdown.
  @usableFromInline
  package enum Change {
    case pause
    case resume
    /// A new end; `target`: the wall-clock date it came from (nil: none any more).
    case retarget(end: Tick, target: Double?)
    /// More (or, negative, less) time left.
    case extend(Tick)
    /// Everything anew (a board row set again); the binding and the completion's state stay.
    case replace(RowSpec)
  }

  /// Applies `change` to `row` and re-renders it if what it shows changed.
  ///
  /// A completion the change brings about waits for the next wake-up, so that changes made one after
  /// the other at the same instant count as one (extending by −10 s and then by +15 s does not finish).
  @usableFromInline
  package mutating func change(_ row: Int, _ change: Change, at now: Tick, into effects: inout Effects) {
    noteOverdue(row, at: now)
    var head = rows[row]
    switch change {
    case .pause:
      guard !head.flags.isPaused else { break }
      head.flags.isPaused = true
      rows.setPausedAt(row, now)
    case .resume:
      guard head.flags.isPaused else { break }
      head.end = Ticks.sum(now, Ticks.difference(head.end, rows.pausedAt[row]))
      head.flags.isPaused = false
      rows.clearPausedAt(row)
    case .retarget(let end, let target):
      head.end = end
      head.flags.followsDate = target != nil
      if let target { rows.setTarget(row, target) }
    case .extend(let amount):
      let old = head.end
      head.end = Ticks.sum(head.end, amount)
      // An extension of a date-based countdown moves the date with it, so re-anchoring keeps it.
      if head.flags.followsDate {
        rows.setTarget(row, rows.targets[row] + Double(Ticks.difference(head.end, old)) / 1e9)
      }
    case .replace(let spec):
      head.end = spec.end
      head.flags.isPaused = spec.pausedAt != nil
      head.flags.isPausedOnItsOwn = spec.isPausedOnItsOwn
      rows[row] = head
      write(spec, to: row)
      head = rows[row]
    }
    // Only a running countdown follows a date: a paused one keeps its frozen time whatever the wall
    // clock does, and once resumed counts that time from the moment it was resumed.
    if head.flags.isPaused { head.flags.followsDate = false }
    rows[row] = head
    process(row, at: now, .changing, into: &effects)
    compactIfWasteful()
    checkInvariants()
  }

  /// Makes the rows, sink slots and display classes freed by the operation that ends available again.
  /// Until then they are not reused, so that the events of one operation never name two things by
  /// one number.
  package mutating func recycle() {
    rows.recycle()
    classes.recycle()
  }

  /// Whether board row `row` was paused on its own.
  @usableFromInline
  package func isPausedOnItsOwn(_ row: Int) -> Bool {
    rows[row].flags.isPausedOnItsOwn
  }

  /// Marks board row `row` as paused on its own (or not).
  package mutating func setPausedOnItsOwn(_ row: Int, _ value: Bool) {
    rows[row].flags.isPausedOnItsOwn = value
  }

  /// From now on releases `row` once it has settled (at once if it already has).
  package mutating func releaseWhenSettled(_ row: Int, at now: Tick, into effects: inout Effects) {
    releaseOnceSettled(row, at: now, into: &effects)
    checkInvariants()
  }

  /// Lets go of rows `batch` of board `owner`, which is going away: ends the board's values of every
  /// row (each leaves its phase group, to be scheduled for its own completion), removes the paused rows
  /// (nothing is left to resume them), and releases the others once they have settled. The invariants
  /// are checked once every row is done: a row that left its group is scheduled only when processed.
  package mutating func letGo(_ batch: [Int], owner: UInt16, at now: Tick, into effects: inout Effects) {
    if isLive(owner: owner) {
      for row in batch { forgetLive(row) }
      removeLive(owner: owner)
    }
    for row in batch {
      if rows[row].flags.isPaused {
        release(row, cancelled: true, into: &effects)
        continue
      }
      releaseOnceSettled(row, at: now, into: &effects)
    }
    checkInvariants()
  }

  /// Marks `row` to be released once it has settled, and processes it (which releases it at once if it
  /// already has); the caller checks the invariants.
  private mutating func releaseOnceSettled(_ row: Int, at now: Tick, into effects: inout Effects) {
    rows[row].flags.releasesWhenSettled = true
    noteOverdue(row, at: now)
    process(row, at: now, .changing, into: &effects)
  }

  /// Re-converts the end of every running row that follows a wall-clock date (after the wall clock
  /// moved), and re-renders those whose value changed.
  package mutating func retargetDates(at now: Tick, into effects: inout Effects, using convert: (Double) -> Tick?) {
    for row in 0..<rows.capacity where rows[row].flags.isLive && rows[row].flags.followsDate {
      guard let end = convert(rows.targets[row]) else { continue }
      noteOverdue(row, at: now)
      rows[row].end = end
      process(row, at: now, .changing, into: &effects)
    }
    checkInvariants()
  }

  // MARK: - Internals

  private mutating func write(_ spec: RowSpec, to row: Int) {
    var head = rows[row]
    head.flags.isPaused = spec.pausedAt != nil
    head.flags.isPausedOnItsOwn = spec.isPausedOnItsOwn
    head.flags.followsDate = spec.target != nil && spec.pausedAt == nil
    rows[row] = head
    if let pausedAt = spec.pausedAt { rows.setPausedAt(row, pausedAt) }
    rows.setTotal(row, spec.total)
    rows.setTarget(row, head.flags.followsDate ? spec.target : nil)
  }

  private mutating func attach(_ binding: Bindings.Binding, to row: Int) {
    let index = bindings.insert(binding)
    rows[row].binding = index
    rows[row].flags.hasBinding = true
  }

  /// Frees `row`'s binding, handing its sink back. `lastChange`: the position in `effects.changes` of
  /// the change just made for it, which then tells the main actor to let the subscriber go after
  /// delivering it (no event needed); only for a release that is not a cancellation.
  mutating func detach(_ row: Int, cancelled: Bool, lastChange: Int? = nil, into effects: inout Effects) {
    let index = rows[row].binding
    rows[row].flags.hasBinding = false
    let binding = bindings.remove(index)
    classes.generic[Int(binding.displayClass)]?.forget(index)
    let key = SinkKey(displayClass: binding.displayClass, sink: binding.sink)
    let serial = binding.isStream ? 0 : classes.serial(of: binding.sink, in: binding.displayClass)
    if let lastChange, !cancelled, !binding.isStream {
      precondition(
        effects.changes[lastChange].sinkKey == key, "Internal inconsistency: the last change is not the subscriber's")
      effects.changes[lastChange].releasesSubscriber = true
    } else {
      effects.append(.sinkReleased(key, serial: serial, isStream: binding.isStream, cancelled: cancelled))
    }
    // Streams' sinks are numbered by the engine, not by their class.
    let classGone =
      binding.isStream
      ? classes.release(binding.displayClass) : classes.returnSink(binding.sink, of: binding.displayClass)
    if classGone { effects.append(.classReleased(binding.displayClass)) }
  }

  /// Frees `row` (and its binding; see ``detach(_:cancelled:lastChange:into:)``).
  mutating func release(_ row: Int, cancelled: Bool, lastChange: Int? = nil, into effects: inout Effects) {
    if rows[row].flags.hasBinding { detach(row, cancelled: cancelled, lastChange: lastChange, into: &effects) }
    if rows[row].flags.owner != 0 { forgetLive(row) }
    if rows[row].flags.isQueued { staleItems += 1 }
    rows.release(row)
  }

  /// Before a change by hand: a countdown whose time ran out while the driver had not woken yet reached
  /// zero at its end, whatever the change then does (unless it puts time back).
  mutating func noteOverdue(_ row: Int, at now: Tick) {
    if rows[row].flags.completion == .armed, rows.remaining(row, at: now) <= 0 { rows[row].flags.completion = .pending }
  }
}
