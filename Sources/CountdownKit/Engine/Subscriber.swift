/// What the engine needs to know about a display's type: functions compiled for it (in the module
/// that names it, from inlinable code), which capture nothing and are given what they work on.
///
/// Adding a countdown thus allocates nothing for its display: the display and the subscriber's closures
/// are read through pointers for the duration of the call (see ``DisplayDescription``).
@usableFromInline
struct DisplayKind: Sendable {
  /// The display's type, to look for an existing display class of an equal display.
  @usableFromInline let type: ObjectIdentifier
  /// Whether `table` is the table of a display equal to the one at the pointer.
  @usableFromInline let isShown: @Sendable (MainTable, UnsafeRawPointer) -> Bool
  /// A table for the display at the first pointer, the engine's origin at the second.
  @usableFromInline let makeTable: @Sendable (UnsafeRawPointer, UnsafeRawPointer, DisplayPlan?) -> MainTable
  /// The generic path's renderer for the display at the pointer (a display without a plan).
  @usableFromInline let makeRenderer: @Sendable (UnsafeRawPointer) -> GenericRenderer
  /// Queues the subscriber closures at the pointer (a `SubscriberClosures`) for the main actor to
  /// install in `table` at slot `sink` as subscriber number `serial` (see `MainTable.installNext`).
  @usableFromInline let enqueue:
    @Sendable (_ table: MainTable, _ sink: UInt32, _ serial: UInt32, UnsafeRawPointer) -> Void
  /// Installs the subscriber closures at the pointer in `table` at once. Only on the main actor, and
  /// only for a sink slot never used before in that table (see `EngineState.binding(for:onMainActor:)`).
  @usableFromInline let install:
    @Sendable (_ table: MainTable, _ sink: UInt32, _ serial: UInt32, UnsafeRawPointer) -> Void

  @inlinable
  init(
    type: ObjectIdentifier, isShown: @escaping @Sendable (MainTable, UnsafeRawPointer) -> Bool,
    makeTable: @escaping @Sendable (UnsafeRawPointer, UnsafeRawPointer, DisplayPlan?) -> MainTable,
    makeRenderer: @escaping @Sendable (UnsafeRawPointer) -> GenericRenderer,
    enqueue: @escaping @Sendable (MainTable, UInt32, UInt32, UnsafeRawPointer) -> Void,
    install: @escaping @Sendable (MainTable, UInt32, UInt32, UnsafeRawPointer) -> Void
  ) {
    self.type = type
    self.isShown = isShown
    self.makeTable = makeTable
    self.makeRenderer = makeRenderer
    self.enqueue = enqueue
    self.install = install
  }

  /// The kind of `Display` on a clock whose instants are `Instant`s.
  @inlinable
  static func of<Display: CountdownDisplay, Instant: InstantProtocol>(_: Display.Type, _: Instant.Type) -> DisplayKind
  where Instant.Duration == Duration {
    DisplayKind(
      type: ObjectIdentifier(Display.self),
      isShown: { table, display in
        guard let typed = table.typed as? SinkTable<Display, Instant> else { return false }
        return Equality.areEqual(typed.display, display.load(as: Display.self))
      },
      makeTable: { display, origin, plan in
        MainTable.make(display: display.load(as: Display.self), origin: origin.load(as: Instant.self), plan: plan)
      },
      makeRenderer: { display in GenericRenderer.make(display.load(as: Display.self)) },
      enqueue: { table, sink, serial, closures in
        let typed = unsafeDowncast(table.typed, to: SinkTable<Display, Instant>.self)
        typed.enqueue(closures.load(as: SubscriberClosures<Display.Value, Instant>.self), sink: sink, serial: serial)
      },
      install: { table, sink, serial, closures in
        let typed = unsafeDowncast(table.typed, to: SinkTable<Display, Instant>.self)
        let closures = closures.load(as: SubscriberClosures<Display.Value, Instant>.self)
        MainActor.assumeIsolated { typed.install(closures, sink: sink, serial: serial) }
      })
  }
}

/// A display as the engine needs it during the call that adds a subscriber: its kind, plan and period,
/// and pointers to the display and the engine's origin, valid only during that call.
@usableFromInline
struct DisplayDescription {
  @usableFromInline let kind: DisplayKind
  @usableFromInline let plan: DisplayPlan?
  @usableFromInline let period: Duration?
  @usableFromInline let display: UnsafeRawPointer
  @usableFromInline let origin: UnsafeRawPointer

  @inlinable
  init(kind: DisplayKind, plan: DisplayPlan?, period: Duration?, display: UnsafeRawPointer, origin: UnsafeRawPointer) {
    self.kind = kind
    self.plan = plan
    self.period = period
    self.display = display
    self.origin = origin
  }

  /// Runs `body` with the description of `display`, of `kind`, on a clock whose origin is `origin`.
  @inlinable
  static func with<Display: CountdownDisplay, Instant: InstantProtocol, Result>(
    _ display: Display, kind: DisplayKind, origin: Instant, _ body: (DisplayDescription) -> Result
  ) -> Result where Instant.Duration == Duration {
    withUnsafePointer(to: display) { display in
      withUnsafePointer(to: origin) { origin in
        body(
          DisplayDescription(
            kind: kind, plan: DisplayPlan.make(for: display.pointee), period: display.pointee.period,
            display: UnsafeRawPointer(display), origin: UnsafeRawPointer(origin)))
      }
    }
  }

  /// A renderer for the generic path, if the display has no plan.
  func makeRenderer() -> GenericRenderer? {
    plan == nil ? kind.makeRenderer(display) : nil
  }
}

/// A main-actor subscriber's closures, as its display's table keeps them.
@usableFromInline
struct SubscriberClosures<Value: Equatable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline let onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?
  @usableFromInline let onFinish: (@MainActor @Sendable () -> Void)?
  /// Where `onChange` keeps what it captured, for prefetching (see ``Prefetch/contextAddress(of:)``).
  @usableFromInline let hint: UInt

  @inlinable
  init(
    onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    self.onChange = onChange
    self.onFinish = onFinish
    hint = onChange.map { Prefetch.contextAddress(of: $0) } ?? 0
  }
}

/// A new subscriber during the call that adds it: its display, and where its snapshots go.
@usableFromInline
struct Subscriber {
  @usableFromInline let display: DisplayDescription
  @usableFromInline let sink: Sink

  /// Where a subscriber's snapshots go.
  @usableFromInline
  enum Sink {
    /// To the main actor: the subscriber's closures (a `SubscriberClosures`), valid during the call.
    case main(closures: UnsafeRawPointer)
    /// To a stream, off the main actor.
    case stream(StreamSink)
  }

  @inlinable
  init(display: DisplayDescription, sink: Sink) {
    self.display = display
    self.sink = sink
  }
}

/// Where a stream's changes go: a closure that yields each snapshot (or, given `nil`, finishes the
/// stream), made in inlinable code for the display and the clock.
@usableFromInline
struct StreamSink: Sendable {
  @usableFromInline let deliver: @Sendable (Effects.Change?, Tick) -> Void

  @inlinable
  init<Display: CountdownDisplay, Instant: InstantProtocol>(
    display: Display, origin: Instant,
    continuation: AsyncStream<CountdownSnapshot<Display.Value, Instant>>.Continuation
  ) where Instant.Duration == Duration {
    let valueIsTicks = DisplayPlan.valueIsTicks(DisplayPlan.make(for: display), for: Display.Value.self)
    deliver = { change, tick in
      guard let change else { return continuation.finish() }
      continuation.yield(
        Snapshots.snapshot(
          of: change, at: origin.advanced(by: Ticks.duration(tick)), display: display, valueIsTicks: valueIsTicks))
    }
  }
}
