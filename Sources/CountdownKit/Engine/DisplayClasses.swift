/// The displays an engine shows, each once: a *display class* is one display value (`.seconds`, a ring
/// of 415 steps over 8 s...) with its plan and its schedule lane, shared by every binding that shows it.
///
/// Class 0 is the class of bindings that show nothing and only report their completion. A class lives
/// while something refers to it (its bindings, and the board that shows it); its number is then reused.
package struct DisplayClasses: Sendable {
  /// One display class.
  package struct Entry: Sendable {
    /// The display's rule in ticks, or `nil` for the generic path.
    package var plan: DisplayPlan?
    /// The schedule lane of the display's changes (its tolerance).
    package var lane: Int
    /// Bindings and boards that refer to the class.
    package var references: Int
    /// The next sink slot to hand out, and the slots handed back.
    package var nextSink: UInt32 = 0
    package var freeSinks: [UInt32] = []
  }

  private(set) var entries: [Entry]
  private var free: [UInt32] = []
  /// Sink slots and classes given back during the current operation: reused only after it (see
  /// ``recycle()``), so that the main actor never sees a new subscriber installed under the number of
  /// one the same operation removed.
  private var returnedSinks: [(displayClass: UInt32, sink: UInt32)] = []
  private var releasedClasses: [UInt32] = []

  /// The classes, with class 0 (no display) in `lane`.
  package init(completionLane lane: Int) {
    entries = [Entry(plan: nil, lane: lane, references: 1)]
  }

  /// A new class with no references yet.
  package mutating func insert(plan: DisplayPlan?, lane: Int) -> UInt32 {
    let entry = Entry(plan: plan, lane: lane, references: 0)
    if let index = free.popLast() {
      entries[Int(index)] = entry
      return index
    }
    precondition(entries.count < 0x00FF_FFFF, "CountdownEngine supports at most 16,777,215 distinct displays at once")
    entries.append(entry)
    return UInt32(entries.count - 1)
  }

  package subscript(index: UInt32) -> Entry {
    get { entries[Int(index)] }
    _modify { yield &entries[Int(index)] }
  }

  /// Takes a sink slot of class `index` and counts the reference.
  package mutating func takeSink(of index: UInt32) -> UInt32 {
    entries[Int(index)].references += 1
    if let sink = entries[Int(index)].freeSinks.popLast() { return sink }
    defer { entries[Int(index)].nextSink += 1 }
    return entries[Int(index)].nextSink
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
    entries[Int(index)] = Entry(plan: nil, lane: 0, references: 0)
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
