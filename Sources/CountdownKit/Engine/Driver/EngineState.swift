import Foundation

/// Everything an engine keeps behind its one lock: the core, the wall-clock timeline, the lifecycle
/// (with the driver's state), and what the core's data refers to outside itself (streams, boards, the
/// main-actor tables of display classes).
@usableFromInline
struct EngineState<C: Clock>: Sendable where C.Duration == Duration {
  @usableFromInline var core: EngineCore
  var timeline: WallClockTimeline<C.Instant>
  var lifecycle: EngineLifecycle<C> = .running(.stepping)
  /// The engine itself while something is scheduled (a change to show, a completion to fire), as a run
  /// loop keeps its timers: dropping the app's last reference then stops nothing. Taken by every
  /// operation and driver step that leaves work scheduled, let go by the first that leaves none (see
  /// `CountdownEngine.holdWhileScheduled`).
  var heldWhileScheduled: CountdownEngine<C>?
  var wakeUps = 0
  /// What the current operation produced; emptied by every flush, kept for its capacity.
  @usableFromInline var effects = Effects()
  /// Stream sinks by index (``Bindings/Binding/sink`` of stream bindings).
  @usableFromInline var streams: [StreamSink?] = []
  var freeStreams: [UInt32] = []
  /// The engine's boards by index (a row's ``RowFlags/owner`` minus one).
  @usableFromInline var boards: [(any BoardState)?] = []
  /// The display classes made so far, by display type, to share a class among equal displays.
  @usableFromInline var displayClasses: [ObjectIdentifier: [(displayClass: UInt32, table: any SubscriberTable)]] = [:]
  /// Each display class's main-actor table, by class.
  var tables: [(any SubscriberTable)?] = []
  /// Main-actor events of the current operation that must reach the mailbox before what the core
  /// produced: new display classes' tables and new subscribers' installs.
  @usableFromInline var pendingMain: [Mailbox.Event] = []

  init(core: EngineCore, timeline: WallClockTimeline<C.Instant>) {
    self.core = core
    self.timeline = timeline
  }

  /// Installs a main-actor subscriber in display class `displayClass`: takes a sink slot for it and
  /// makes its binding. Every main-actor subscriber (closures, slots, models, publishers, boards' rows, a
  /// subscriber moving to another display, a countdown that only reports its completion) comes in
  /// here; streams come in through ``install(_:in:)-(StreamSink,_)``.
  ///
  /// The subscriber reaches its table through an install event, in order with what is on its way to
  /// the main actor, or at once when the caller is on the main actor (`isOnMainActor`) and the slot is
  /// one the class never had: nothing on its way concerns that slot, so installing now is installing as
  /// the event would, without one (nor the event's allocation).
  @inlinable
  mutating func install(
    _ subscriber: some MainSubscriber, in displayClass: UInt32, delivery: SnapshotDelivery = .whenShownChanges,
    isOnMainActor: Bool = false
  ) -> Bindings.Binding {
    let (sink, serial, isNew) = takeSink(of: displayClass)
    if isOnMainActor, isNew {
      MainActor.assumeIsolated { subscriber.install(sink, serial: serial) }
    } else {
      pendingMain.append(
        .install(SinkKey(displayClass: displayClass, sink: sink), serial: serial, subscriber: subscriber))
    }
    return Bindings.Binding(
      displayClass: displayClass, sink: sink, isStream: false,
      deliversEveryChange: delivery == .whenCountdownChanges)
  }

  /// A sink slot of display class `displayClass` for a new subscriber, its serial number, and whether
  /// the class never had that slot (none was given back to reuse).
  @usableFromInline
  mutating func takeSink(of displayClass: UInt32) -> (sink: UInt32, serial: UInt32, isNew: Bool) {
    let isNew = core.classes.nextSinkIsNew(of: displayClass)
    let (sink, serial) = core.classes.takeSink(of: displayClass)
    return (sink, serial, isNew)
  }

  /// Installs a stream of display class `displayClass`: keeps it, and makes its binding.
  @usableFromInline
  mutating func install(_ stream: StreamSink, in displayClass: UInt32) -> Bindings.Binding {
    core.classes.retain(displayClass)
    return Bindings.Binding(displayClass: displayClass, sink: addStream(stream), isStream: true)
  }

  /// The class of `display` (with `plan`) and its table: an existing class whose display is equal, or
  /// a new one (its table posted to the main actor). Inlinable, so that the table is made and the
  /// displays compared in code compiled for `Display`.
  @inlinable
  mutating func displayClass<Display: CountdownDisplay>(
    for display: Display, plan: DisplayPlan?, origin: C.Instant
  ) -> (displayClass: UInt32, table: SinkTable<Display, C.Instant>) {
    let type = ObjectIdentifier(Display.self)
    for entry in displayClasses[type] ?? [] where isLive(entry.displayClass) {
      // The classes of displays of type `Display` on this engine's clock: their tables are of one type.
      if let table = entry.table as? SinkTable<Display, C.Instant>, Equality.areEqual(table.display, display) {
        return (entry.displayClass, table)
      }
    }
    let table = SinkTable(display: display, origin: origin, plan: plan)
    let generic: (any GenericValues)? = plan == nil ? GenericDisplay(display) : nil
    return (addClass(plan: plan, period: display.period, generic: generic, table: table, type: type), table)
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
    plan: DisplayPlan?, period: Duration?, generic: (any GenericValues)?, table: any SubscriberTable,
    type: ObjectIdentifier
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
  func table(of displayClass: UInt32) -> (any SubscriberTable)? {
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
