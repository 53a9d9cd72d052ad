import Foundation

/// Everything an engine keeps behind its one lock: the core, the wall-clock timeline, the driver's
/// state, and what the core's data refers to outside itself (streams, boards, the main-actor tables of
/// display classes).
@usableFromInline
struct EngineState<C: Clock>: Sendable where C.Duration == Duration {
  @usableFromInline var core: EngineCore
  var timeline: WallClockTimeline<C.Instant>
  var driver: DriverState<C> = .running
  /// The engine itself while something is scheduled (a change to show, a completion to fire), as a run
  /// loop keeps its timers: dropping the app's last reference then stops nothing. Taken by every
  /// operation and driver step that leaves work scheduled, let go by the first that leaves none (see
  /// `CountdownEngine.holdWhileScheduled`).
  var heldWhileScheduled: CountdownEngine<C>?
  var isShutDown = false
  var wakeUps = 0
  /// What the current operation produced; emptied by every flush, kept for its capacity.
  @usableFromInline var effects = Effects()
  /// Stream sinks by index (``Bindings/Binding/sink`` of stream bindings).
  @usableFromInline var streams: [StreamSink?] = []
  var freeStreams: [UInt32] = []
  /// The engine's boards by index (a row's ``RowFlags/owner`` minus one).
  @usableFromInline var boards: [(any BoardState)?] = []
  /// The display classes made so far, by display type, to share a class among equal displays.
  @usableFromInline var displayClasses: [ObjectIdentifier: [(displayClass: UInt32, table: MainTable)]] = [:]
  /// Each display class's main-actor table, by class.
  var tables: [MainTable?] = []
  /// Main-actor events of the current operation that must reach the mailbox before what the core
  /// produced: new display classes' tables and new subscribers' installs.
  @usableFromInline var pendingMain: [Mailbox.Event] = []

  init(core: EngineCore, timeline: WallClockTimeline<C.Instant>) {
    self.core = core
    self.timeline = timeline
  }

  /// Installs a new subscriber of display class `displayClass`: takes a sink slot and, for a main-actor subscriber, sends its box to the table (before anything
  /// the current operation produces); for a stream, keeps the stream. Every way a subscriber comes in
  /// (closures, slots, models, streams, publishers, boards) ends here.
  @usableFromInline
  mutating func install(
    _ sink: SubscriberSink, in displayClass: UInt32, delivery: SnapshotDelivery = .whenShownChanges
  ) -> Bindings.Binding {
    switch sink {
    case .main(let subscriber):
      let (sink, serial) = core.classes.takeSink(of: displayClass)
      pendingMain.append(
        .install(SinkKey(displayClass: displayClass, sink: sink), serial: serial, subscriber: subscriber))
      var binding = Bindings.Binding(displayClass: displayClass, sink: sink, isStream: false)
      binding.deliversEveryChange = delivery == .whenCountdownChanges
      return binding
    case .stream(let stream):
      core.classes.retain(displayClass)
      return Bindings.Binding(displayClass: displayClass, sink: addStream(stream), isStream: true)
    }
  }

  /// For a main-actor subscriber added on the main actor: a sink slot of `displayClass` that its table
  /// never had (none handed back to reuse), so that the caller installs the subscriber in the table at
  /// once (see `CountdownEngine.add`); nil when the next slot is a reused one, whose install must follow
  /// what is on its way for its previous subscriber.
  @usableFromInline
  mutating func takeNewSlot(
    of displayClass: UInt32, delivery: SnapshotDelivery
  ) -> (binding: Bindings.Binding, sink: UInt32, serial: UInt32, table: MainTable)? {
    guard core.classes.nextSinkIsNew(of: displayClass), let table = table(of: displayClass) else { return nil }
    let (sink, serial) = core.classes.takeSink(of: displayClass)
    var binding = Bindings.Binding(displayClass: displayClass, sink: sink, isStream: false)
    binding.deliversEveryChange = delivery == .whenCountdownChanges
    return (binding, sink, serial, table)
  }

  /// The class of `display` (with `plan`): an existing class whose display is equal, or a new one (its
  /// main-actor table posted to the main actor). Inlinable, so that the table is made and the
  /// displays compared in code compiled for `Display`.
  @inlinable
  mutating func displayClass<Display: CountdownDisplay>(
    for display: Display, plan: DisplayPlan?, origin: C.Instant
  ) -> UInt32 {
    let type = ObjectIdentifier(Display.self)
    if let found = displayClasses[type]?.first(where: {
      isLive($0.displayClass) && $0.table.shows(display, on: C.Instant.self)
    }) {
      return found.displayClass
    }
    let table = MainTable.make(display: display, origin: origin, plan: plan)
    let generic: (any GenericValues)? = plan == nil ? GenericDisplay(display) : nil
    return addClass(plan: plan, period: display.period, generic: generic, table: table, type: type)
  }

  /// Whether display class `displayClass` is in use.
  @usableFromInline
  func isLive(_ displayClass: UInt32) -> Bool {
    core.classes.isLive(displayClass)
  }

  /// A new display class showing a display of type `type` with `plan` and `period`, whose main-actor
  /// table is `table`: posts the table to the main actor, and keeps it to be found again.
  @usableFromInline
  mutating func addClass(
    plan: DisplayPlan?, period: Duration?, generic: (any GenericValues)?, table: MainTable, type: ObjectIdentifier
  ) -> UInt32 {
    let displayClass = core.addClass(plan: plan, period: period, generic: generic)
    pendingMain.append(.table(displayClass, table))
    if Int(displayClass) >= tables.count { tables += repeatElement(nil, count: Int(displayClass) + 1 - tables.count) }
    tables[Int(displayClass)] = table
    // A few per type: displays of one type are mostly few (`.seconds` and `.minutes`, a ring or two).
    displayClasses[type, default: []].append((displayClass, table))
    if displayClasses[type, default: []].count > 16 { displayClasses[type]?.removeFirst() }
    return displayClass
  }

  /// Forgets a display class that went away.
  mutating func forgetClass(_ displayClass: UInt32) {
    for (type, classes) in displayClasses where classes.contains(where: { $0.displayClass == displayClass }) {
      displayClasses[type] = classes.filter { $0.displayClass != displayClass }
    }
    if Int(displayClass) < tables.count { tables[Int(displayClass)] = nil }
  }

  /// The main-actor table of display class `displayClass` (nil for class 0, or a class gone).
  func table(of displayClass: UInt32) -> MainTable? {
    Int(displayClass) < tables.count ? tables[Int(displayClass)] : nil
  }

  /// Stores a stream sink, returning its index.
  mutating func addStream(_ sink: StreamSink) -> UInt32 {
    if let index = freeStreams.popLast() {
      streams[Int(index)] = sink
      return index
    }
    streams.append(sink)
    return UInt32(streams.count - 1)
  }

  /// Takes stream sink `index` out.
  mutating func removeStream(_ index: UInt32) -> StreamSink? {
    defer {
      streams[Int(index)] = nil
      freeStreams.append(index)
    }
    return streams[Int(index)]
  }
}
