/// The displays an engine shows, each once: a *display class* is one display value (`.seconds`, a ring
/// of 415 steps over 8 s...) with its plan and its schedule lane, shared by every binding that shows it.
///
/// Class 0 is the class of bindings that show nothing and only report their completion. A class lives
/// while something refers to it (its bindings, and the board that shows it); its number is then reused.
package struct DisplayClasses: Sendable {
  /// One display class's bookkeeping.
  package struct Entry: Sendable {
    /// Bindings and boards that refer to the class.
    package var references: Int
    /// The slots handed back, and the serial number of each slot's subscriber.
    package var freeSinks: [UInt32] = []
    package var serials: [UInt32] = []
  }

  private(set) var entries: [Entry]
  /// Each class's display rule in ticks, or `nil` for the generic path: apart from the bookkeeping,
  /// so that reading it for every change copies nothing that is counted.
  package private(set) var plans: [DisplayPlan?]
  /// Each class's schedule lane (its tolerance).
  package private(set) var lanes: [Int]
  /// For a class whose plan counts down whole units (``DisplayPlan/rounded(unit:elapsed:overtime:)``,
  /// not elapsed), the unit; otherwise 0. What the serving loop's fast path reads.
  package private(set) var countdownUnits: [Tick]
  /// Each class's generic path, for a class whose display has no plan.
  package var generic: [(any GenericValues)?]
  private var free: [UInt32] = []
  /// Sink slots and classes given back during the current operation: reused only after it (see
  /// ``recycle()``), so that the main actor never sees a new subscriber installed under the number of
  /// one the same operation removed.
  private var returnedSinks: [(displayClass: UInt32, sink: UInt32)] = []
  private var releasedClasses: [UInt32] = []
  /// The serial number of the last subscriber given a sink slot (of any class).
  private var lastSerial: UInt32 = 0

  /// The classes, with class 0 (no display) in `lane`.
  package init(completionLane lane: Int) {
    entries = [Entry(references: 1)]
    plans = [nil]
    lanes = [lane]
    countdownUnits = [0]
    generic = [nil]
  }

  /// A new class with no references yet; `generic` is its generic path when `plan` is nil.
  package mutating func insert(plan: DisplayPlan?, lane: Int, generic: (any GenericValues)?) -> UInt32 {
    var unit: Tick = 0
    if case .rounded(let rounding, false, _) = plan { unit = rounding }
    if let index = free.popLast() {
      entries[Int(index)] = Entry(references: 0)
      plans[Int(index)] = plan
      lanes[Int(index)] = lane
      countdownUnits[Int(index)] = unit
      self.generic[Int(index)] = generic
      return index
    }
    precondition(entries.count < 0x00FF_FFFF, "CountdownEngine supports at most 16,777,215 distinct displays at once")
    entries.append(Entry(references: 0))
    plans.append(plan)
    lanes.append(lane)
    countdownUnits.append(unit)
    self.generic.append(generic)
    return UInt32(entries.count - 1)
  }

  package subscript(index: UInt32) -> Entry {
    get { entries[Int(index)] }
    _modify { yield &entries[Int(index)] }
  }

  /// Takes a sink slot of class `index` for a new subscriber, numbered with the next serial number,
  /// and counts the reference.
  package mutating func takeSink(of index: UInt32) -> (sink: UInt32, serial: UInt32) {
    entries[Int(index)].references += 1
    lastSerial &+= 1
    if let sink = entries[Int(index)].freeSinks.popLast() {
      entries[Int(index)].serials[Int(sink)] = lastSerial
      return (sink, lastSerial)
    }
    entries[Int(index)].serials.append(lastSerial)
    return (UInt32(entries[Int(index)].serials.count - 1), lastSerial)
  }

  /// The serial number of the subscriber in sink slot `sink` of class `index`: tells it from the
  /// subscribers that had that slot (or that class number) before or after it.
  package func serial(of sink: UInt32, in index: UInt32) -> UInt32 {
    entries[Int(index)].serials[Int(sink)]
  }

  /// Whether the next ``takeSink(of:)`` of class `index` hands out a slot the class never had (none was
  /// given back to reuse).
  package func nextSinkIsNew(of index: UInt32) -> Bool {
    entries[Int(index)].freeSinks.isEmpty
  }

  /// Gives a sink slot back and drops the reference; returns whether the class went away.
  package mutating func returnSink(_ sink: UInt32, of index: UInt32) -> Bool {
    returnedSinks.append((index, sink))
    return release(index)
  }

  /// Counts a reference that holds no sink (a board's hold on its display).
  package mutating func retain(_ index: UInt32) {
    entries[Int(index)].references += 1
  }

  /// Drops a reference; returns whether the class went away (its number is free again).
  package mutating func release(_ index: UInt32) -> Bool {
    entries[Int(index)].references -= 1
    guard entries[Int(index)].references == 0, index != 0 else { return false }
    entries[Int(index)] = Entry(references: 0)
    plans[Int(index)] = nil
    countdownUnits[Int(index)] = 0
    generic[Int(index)] = nil
    releasedClasses.append(index)
    return true
  }

  /// Makes the sink slots and classes given back by the operation that ends available again.
  package mutating func recycle() {
    for (index, sink) in returnedSinks where isLive(index) { entries[Int(index)].freeSinks.append(sink) }
    free.append(contentsOf: releasedClasses)
    returnedSinks.removeAll(keepingCapacity: true)
    releasedClasses.removeAll(keepingCapacity: true)
  }

  /// Whether class `index` is in use.
  package func isLive(_ index: UInt32) -> Bool {
    Int(index) < entries.count && (index == 0 || entries[Int(index)].references > 0)
  }
}
