import Foundation

/// Everything an engine keeps behind its one lock: the core, the wall-clock timeline, the driver's
/// state, and what the core's data refers to outside itself (streams, boards, the main-actor tables of
/// display classes).
@usableFromInline
struct EngineState<C: Clock>: Sendable where C.Duration == Duration {
  @usableFromInline var core: EngineCore
  var timeline: Timeline<C.Instant>
  var driver: DriverState<C> = .running
  var isShutDown = false
  var wakeUps = 0
  /// What the current operation produced; emptied by every flush, kept for its capacity.
  @usableFromInline var effects = Effects()
  /// Stream sinks by index (``Bindings/Binding/sink`` of stream bindings).
  var streams: [StreamSink?] = []
  var freeStreams: [UInt32] = []
  /// The engine's boards by index (a row's ``RowFlags/owner`` minus one).
  var boards: [(any BoardStorage)?] = []
  /// The display classes made so far, by display type, to share a class among equal displays.
  var displayClasses: [ObjectIdentifier: [(displayClass: UInt32, table: MainTable)]] = [:]
  /// Main-actor events of the current operation that must reach the mailbox before what the core
  /// produced: new display classes' tables and new subscribers' installs.
  var pendingMain: [Mailbox.Event] = []

  init(core: EngineCore, timeline: Timeline<C.Instant>) {
    self.core = core
    self.timeline = timeline
  }

  /// The binding of a new subscriber: its display's class (an existing one whose display is equal, or
  /// a new one), a sink slot there, and the main-actor install of its closures (or its stream).
  /// `onMainActor`: the caller is isolated to the main actor.
  mutating func binding(for subscriber: Subscriber, onMainActor: Bool = false) -> Bindings.Binding {
    let (displayClass, table) = self.displayClass(for: subscriber.display)
    switch subscriber.sink {
    case .main(let closures):
      let isNewSink = core.classes.nextSinkIsNew(of: displayClass)
      let (sink, serial) = core.classes.takeSink(of: displayClass)
      // Added on the main actor into a sink slot the table never had: nothing on its way to the main
      // actor can concern that slot (no change, no removal), so installing now is the same as
      // installing when the mailbox gets there, without queueing the closures and an event for it (a
      // loop of a hundred thousand adds on the main actor queued 80 bytes per add until it returned).
      // Not `Thread.isMainThread`: the main actor need not run on the main thread (it does not under
      // `swift test` on Linux), and the main thread need not be the main actor.
      if onMainActor, isNewSink {
        subscriber.display.kind.install(table, sink, serial, closures)
      } else {
        subscriber.display.kind.enqueue(table, sink, serial, closures)
        pendingMain.append(.install(table))
      }
      return Bindings.Binding(displayClass: displayClass, sink: sink, isStream: false)
    case .stream(let sink):
      core.classes.retain(displayClass)
      return Bindings.Binding(displayClass: displayClass, sink: addStream(sink), isStream: true)
    }
  }

  /// The class of `display` and its main-actor table, made (and posted) if there is none.
  mutating func displayClass(for display: DisplayDescription) -> (UInt32, MainTable) {
    let type = display.kind.type
    if let found = displayClasses[type]?.first(where: {
      core.classes.isLive($0.displayClass) && display.kind.isShown($0.table, display.display)
    }) {
      return found
    }
    let displayClass = core.addClass(plan: display.plan, period: display.period)
    let table = display.kind.makeTable(display.display, display.origin, display.plan)
    pendingMain.append(.table(displayClass, table))
    // A few per type: displays of one type are mostly few (`.seconds` and `.minutes`, a ring or two).
    displayClasses[type, default: []].append((displayClass, table))
    if displayClasses[type, default: []].count > 16 { displayClasses[type]?.removeFirst() }
    return (displayClass, table)
  }

  /// Forgets a display class that went away.
  mutating func forgetClass(_ displayClass: UInt32) {
    for (type, classes) in displayClasses where classes.contains(where: { $0.displayClass == displayClass }) {
      displayClasses[type] = classes.filter { $0.displayClass != displayClass }
    }
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

/// What the driver task is doing, as far as mutations need to know.
enum DriverState<C: Clock> where C.Duration == Duration {
  /// Between steps: the next step will look at the schedule anyway.
  case running
  /// Sleeping until an instant in a task that can be cancelled to wake it early.
  case sleeping(until: C.Instant, Task<Void, Never>)
  /// Nothing scheduled: waiting (once the continuation is there) to be told there is work.
  case parked(CheckedContinuation<Void, Never>?, signalled: Bool)
  /// Shut down.
  case stopped

  /// Wakes the driver if the earliest wake-up is now earlier than what it sleeps until.
  mutating func wakeIfNeeded(nextWake: C.Instant?) -> DriverWake? {
    guard let nextWake else { return nil }
    switch self {
    case .sleeping(let until, let sleeper) where nextWake < until:
      self = .running
      return .cancel(sleeper)
    case .parked(let continuation?, _):
      self = .running
      return .resume(continuation)
    case .parked(nil, _):
      self = .parked(nil, signalled: true)
      return nil
    case .sleeping, .running, .stopped:
      return nil
    }
  }

  /// Stops the driver, returning how to tell it.
  mutating func stop() -> DriverWake? {
    defer { self = .stopped }
    switch self {
    case .sleeping(_, let sleeper): return .cancel(sleeper)
    case .parked(let continuation?, _): return .resume(continuation)
    case .parked(nil, _), .running, .stopped: return nil
    }
  }
}

/// How to wake the driver; performed after the lock is released.
enum DriverWake {
  case cancel(Task<Void, Never>)
  case resume(CheckedContinuation<Void, Never>)

  func perform() {
    switch self {
    case .cancel(let sleeper): sleeper.cancel()
    case .resume(let continuation): continuation.resume()
    }
  }
}
