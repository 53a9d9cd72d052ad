// The live values of boards that keep every row's value (see `LiveColumns`): rendering a row into its
// board's column or phase group, serving the groups, and what each wake-up hands over.

extension EngineCore {
  /// Makes board `owner` keep every row's value, for a display of class `displayClass`.
  ///
  /// - Precondition: the display has a plan (see ``DisplayPlan``).
  package mutating func addLive(owner: UInt16, displayClass: UInt32) {
    guard let plan = classes.plans[Int(displayClass)] else {
      preconditionFailure(
        "A board that keeps every row's value needs a built-in display (seconds, minutes, adaptive, phases, progress)")
    }
    let tolerance = schedule.tolerance(ofLane: classes.lanes[Int(displayClass)])
    if Int(owner) >= live.count { live += Array(repeating: nil, count: Int(owner) + 1 - live.count) }
    live[Int(owner)] = LiveColumns(displayClass: displayClass, plan: plan, tolerance: tolerance)
  }

  /// Stops keeping board `owner`'s values (its rows are gone).
  package mutating func removeLive(owner: UInt16) {
    if Int(owner) < live.count { live[Int(owner)] = nil }
  }

  /// The live values of board `owner`, if it keeps every row's value.
  package func live(of owner: UInt16) -> LiveColumns? {
    Int(owner) < live.count ? live[Int(owner)] : nil
  }

  /// Whether the rows of board `owner` have live values.
  func isLive(owner: UInt16) -> Bool {
    owner != 0 && Int(owner) < live.count && live[Int(owner)] != nil
  }

  /// Renders row `row` of a board with live values into its column or its phase group; `force` gives
  /// its value even if unchanged (a new row). Returns the tick it is next due at for a change of value
  /// (`Ticks.max`: none, or its group serves it).
  mutating func renderLive(
    _ row: Int, _ head: inout Rows.Head, remaining: Tick, at now: Tick, force: Bool
  ) -> Tick {
    let owner = Int(head.flags.owner)
    guard owner < live.count, let displayClass = live[owner]?.displayClass,
      let plan = classes.plans[Int(displayClass)]
    else { return Ticks.max }
    // Moved out while it is worked on, so that changing it copies nothing.
    guard var columns = live[owner] else { return Ticks.max }
    live[owner] = nil
    defer { live[owner] = columns }
    let paused = head.flags.isPaused
    let (value, next) = plan.evaluate(remaining: remaining, paused: paused)
    let flags = (paused ? LiveColumns.Entry.pausedFlag : 0) | (remaining <= 0 ? LiveColumns.Entry.finishedFlag : 0)
    let place =
      columns.unit > 0 && !paused && remaining > 0 && !head.flags.hasBinding ? columns.group(of: head.end) : nil
    // What the row showed until now, and where it was.
    let shown: (value: Int64, flags: UInt32)?
    if head.flags.isInGroup {
      let group = Int(columns.groupOf[row])
      let stored = columns.groups[group].units[Int(head.binding)]
      let unitNumber = stored < 0 ? ~stored : stored
      if !force, let place, place.group == group, place.unitNumber == unitNumber { return Ticks.max }
      // A row marked to be skipped at the next serve already shows that serve's value.
      let period = columns.groups[group].period + (stored < 0 ? 1 : 0)
      shown = (columns.value(ofUnit: unitNumber, period: period), 0)
      Self.leaveGroup(row, &head, in: &columns, rows: &rows)
    } else if columns.valueFlags[row] & LiveColumns.hasValueFlag != 0 {
      shown = (columns.values[row], UInt32(columns.valueFlags[row] & 3))
    } else {
      shown = nil
    }
    let changed = force || shown?.value != value || shown?.flags != flags
    if changed {
      let shows = columns.valueIsTicks ? value : remaining
      columns.batch.append(LiveColumns.Entry(row: UInt32(row), flags: flags, remaining: shows))
    }
    if let place {
      if columns.valueFlags[row] & LiveColumns.hasValueFlag != 0 { Self.forgetValue(row, in: &columns) }
      Self.joinGroup(row, &head, place, value: value, at: now, in: &columns)
      return Ticks.max
    }
    if changed {
      if let shown { columns.count(shown.value, remaining: remaining, by: -1) }
      columns.count(value, remaining: remaining, by: 1)
      columns.values[row] = value
      columns.valueFlags[row] = UInt8(flags) | LiveColumns.hasValueFlag
    }
    guard let next else { return Ticks.max }
    let change = Ticks.difference(head.end, next)
    return change > now ? change : Ticks.sum(now, columns.width > 0 ? columns.width : maximumTolerance)
  }

  /// Puts row `row` in phase group `place.group` of `columns` with its end's unit number; `value` is
  /// what it shows now (the group gives it from the next serve on, unless that would repeat it).
  private static func joinGroup(
    _ row: Int, _ head: inout Rows.Head, _ place: (group: Int, unitNumber: Int32), value: Int64, at now: Tick,
    in columns: inout LiveColumns
  ) {
    let group = place.group
    if columns.groups[group].rows.isEmpty || columns.groups[group].period == .min {
      let period = columns.period(of: group, at: now)
      columns.groups[group].period = period
      columns.groups[group].nextServe = columns.serveTime(of: group, period: period + 1)
    }
    // Past its boundary of this period already: the next serve would give the value it shows now.
    let repeatsAtNextServe = value == columns.value(ofUnit: place.unitNumber, period: columns.groups[group].period + 1)
    head.binding = UInt32(columns.groups[group].rows.count)
    head.flags.isInGroup = true
    columns.groups[group].rows.append(UInt32(row))
    columns.groups[group].units.append(repeatsAtNextServe ? ~place.unitNumber : place.unitNumber)
    columns.groupOf[row] = UInt16(group)
  }

  /// Takes row `row` out of its phase group in `columns` (the group's last row takes its place, its
  /// head in `rows` told).
  private static func leaveGroup(_ row: Int, _ head: inout Rows.Head, in columns: inout LiveColumns, rows: inout Rows) {
    let group = Int(columns.groupOf[row])
    let position = Int(head.binding)
    precondition(
      position < columns.groups[group].rows.count && columns.groups[group].rows[position] == UInt32(row),
      "Internal inconsistency: row \(row) is not at \(position) of its group")
    let last = columns.groups[group].rows.count - 1
    if position != last {
      let moved = columns.groups[group].rows[last]
      columns.groups[group].rows[position] = moved
      columns.groups[group].units[position] = columns.groups[group].units[last]
      rows[Int(moved)].binding = UInt32(position)
    }
    columns.groups[group].rows.removeLast()
    columns.groups[group].units.removeLast()
    head.flags.isInGroup = false
    head.binding = 0
  }

  /// Forgets the value row `row` showed in the column of `columns` (it leaves, or joins a group).
  private static func forgetValue(_ row: Int, in columns: inout LiveColumns) {
    guard columns.valueFlags[row] & LiveColumns.hasValueFlag != 0 else { return }
    columns.count(columns.values[row], remaining: 0, by: -1)
    columns.valueFlags.reset(row)
    columns.values.reset(row)
  }

  /// Takes live row `row` out of its phase group before it is given a binding (whose index takes the
  /// place of its position in the group), keeping what it shows in the column.
  mutating func leaveLiveGroup(_ row: Int) {
    var head = rows[row]
    let owner = Int(head.flags.owner)
    guard head.flags.isInGroup, isLive(owner: head.flags.owner), var columns = live[owner] else { return }
    live[owner] = nil
    defer { live[owner] = columns }
    let group = Int(columns.groupOf[row])
    let stored = columns.groups[group].units[Int(head.binding)]
    let period = columns.groups[group].period + (stored < 0 ? 1 : 0)
    let shown = columns.value(ofUnit: stored < 0 ? ~stored : stored, period: period)
    Self.leaveGroup(row, &head, in: &columns, rows: &rows)
    rows[row] = head
    columns.values[row] = shown
    columns.valueFlags[row] = LiveColumns.hasValueFlag
  }

  /// Forgets live row `row` (it is being released).
  mutating func forgetLive(_ row: Int) {
    var head = rows[row]
    let owner = Int(head.flags.owner)
    guard isLive(owner: head.flags.owner), var columns = live[owner] else { return }
    live[owner] = nil
    defer { live[owner] = columns }
    if head.flags.isInGroup {
      Self.leaveGroup(row, &head, in: &columns, rows: &rows)
      rows[row] = head
    } else {
      Self.forgetValue(row, in: &columns)
    }
  }

  /// Serves the phase groups due at `now`: each gives every row's new value in one walk over two
  /// contiguous arrays; rows that reached zero leave it and are processed on their own (their last
  /// value, their completion).
  mutating func serveLiveGroups(at now: Tick, into effects: inout Effects) {
    for owner in live.indices where (live[owner]?.unit ?? 0) > 0 {
      guard var columns = live[owner] else { continue }
      live[owner] = nil
      var finishing: [Int] = []
      let rule = columns.rule
      for group in columns.groups.indices where columns.groups[group].nextServe <= now {
        let period = columns.period(of: group, at: now)
        // A skip mark stands for the value of the serve after the last one; a wake-up that comes whole
        // periods later (after a suspension) gives every row, marked or not.
        let skipsMarked = period <= columns.groups[group].period + 1
        columns.groups[group].period = period
        columns.groups[group].nextServe = columns.serveTime(of: group, period: period + 1)
        // Moved out, so that marks can be cleared in place while the batch grows.
        var units = columns.groups[group].units
        columns.groups[group].units = []
        let rows = columns.groups[group].rows
        units.withUnsafeMutableBufferPointer { units in
          rows.withUnsafeBufferPointer { rows in
            for index in units.indices {
              var number = units[index]
              if number < 0 {
                number = ~number
                units[index] = number
                if skipsMarked { continue }
              }
              let left = rule.units(endingIn: Int64(number), period: period)
              guard left > 0 else {
                finishing.append(Int(rows[index]))
                continue
              }
              columns.batch.append(LiveColumns.Entry(row: rows[index], flags: 0, remaining: rule.value(units: left)))
            }
          }
        }
        columns.groups[group].units = units
      }
      for row in finishing {
        var head = rows[row]
        Self.leaveGroup(row, &head, in: &columns, rows: &rows)
        rows[row] = head
      }
      live[owner] = columns
      for row in finishing { process(row, at: now, .serving, into: &effects) }
    }
  }

  /// The earliest serve of a phase group that holds rows; nil if none does.
  func nextLiveWake() -> Tick? {
    var earliest: Tick?
    for case let columns? in live where columns.unit > 0 {
      for group in columns.groups where !group.rows.isEmpty {
        if earliest.map({ group.nextServe < $0 }) ?? true { earliest = group.nextServe }
      }
    }
    return earliest
  }

  /// Takes the rows whose value changed since the last call, by board.
  package mutating func takeLiveBatches() -> [(owner: UInt16, entries: [LiveColumns.Entry])] {
    var batches: [(owner: UInt16, entries: [LiveColumns.Entry])] = []
    for owner in live.indices where !(live[owner]?.batch.isEmpty ?? true) {
      // Moved out whole; the next batch starts with room for as many (up to a wake-up's worth).
      var entries: [LiveColumns.Entry] = []
      entries.reserveCapacity(Swift.min(live[owner]?.batch.count ?? 0, 65_536))
      swap(&entries, &live[owner]!.batch)
      batches.append((UInt16(owner), entries))
    }
    return batches
  }
}
