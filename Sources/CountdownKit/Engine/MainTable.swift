/// A display class's table on the main actor, its display type erased: what the mailbox calls for each
/// change. Its closures are made in inlinable code (``make(display:origin:plan:)``), so that they are
/// compiled for the display and the clock in the module that names them.
@MainActor
@usableFromInline
final class MainTable: Sendable {
  /// The typed table (a `SinkTable`, or the `FinishTable` of class 0).
  @usableFromInline nonisolated let typed: any AnyObject & Sendable
  /// Delivers a run of changes of the class (see `SinkTable.deliver(_:at:skipping:while:)`).
  let deliver: Deliver

  /// Delivers a run of changes of a class computed at a tick, skipping some subscribers, while a
  /// condition holds; returns how many it got through and what its prefetch pass read.
  @usableFromInline typealias Deliver =
    @MainActor @Sendable (
      UnsafeBufferPointer<Effects.Change>, Tick, Set<SubscriberKey>, () -> Bool
    ) -> (handled: Int, prefetched: UInt)
  let finish: @MainActor @Sendable (UInt32) -> Void
  let remove: @MainActor @Sendable (UInt32) -> Void
  /// The serial number of a slot's subscriber (see `SubscriberKey`).
  let serial: @MainActor @Sendable (UInt32) -> UInt32

  @usableFromInline
  nonisolated init(
    typed: any AnyObject & Sendable,
    deliver: @escaping Deliver,
    finish: @escaping @MainActor @Sendable (UInt32) -> Void,
    remove: @escaping @MainActor @Sendable (UInt32) -> Void,
    serial: @escaping @MainActor @Sendable (UInt32) -> UInt32
  ) {
    self.typed = typed
    self.deliver = deliver
    self.finish = finish
    self.remove = remove
    self.serial = serial
  }

  /// The table of a display class showing `display`.
  @inlinable
  nonisolated static func make<Display: CountdownDisplay, Instant: InstantProtocol>(
    display: Display, origin: Instant, plan: DisplayPlan?
  ) -> MainTable where Instant.Duration == Duration {
    let table = SinkTable(display: display, origin: origin, plan: plan)
    return MainTable(
      typed: table, deliver: { table.deliver($0, at: $1, skipping: $2, while: $3) }, finish: { table.finish($0) },
      remove: { table.remove($0) }, serial: { table.serial(of: $0) })
  }

  /// The table of display class 0 (completions only).
  nonisolated static func makeFinishTable() -> MainTable {
    let table = FinishTable()
    return MainTable(
      typed: table, deliver: { changes, _, _, _ in (changes.count, 0) }, finish: { table.onFinish[$0]?() },
      remove: { table.onFinish[$0] = nil },
      serial: { table.serials[$0] ?? 0 })
  }
}

/// A display as the engine needs it, described in inlinable code for the display and the clock.
@usableFromInline
struct DisplayDescription: Sendable {
  /// The display's type, to look for an existing display class of an equal display.
  @usableFromInline let displayType: ObjectIdentifier
  @usableFromInline let plan: DisplayPlan?
  @usableFromInline let period: Duration?
  /// Whether `table` is the table of a display equal to this one.
  @usableFromInline let isShown: @Sendable (MainTable) -> Bool
  @usableFromInline let makeTable: @Sendable () -> MainTable
  /// The generic path's renderer, for a display without a plan.
  @usableFromInline let makeRenderer: (@Sendable () -> GenericRenderer)?

  @inlinable
  init<Display: CountdownDisplay, Instant: InstantProtocol>(display: Display, origin: Instant)
  where Instant.Duration == Duration {
    let plan = DisplayPlan.make(for: display)
    displayType = ObjectIdentifier(Display.self)
    self.plan = plan
    period = display.period
    isShown = { table in
      guard let typed = table.typed as? SinkTable<Display, Instant> else { return false }
      return Equality.areEqual(typed.display, display)
    }
    makeTable = { MainTable.make(display: display, origin: origin, plan: plan) }
    if plan == nil {
      makeRenderer = { GenericRenderer.make(display) }
    } else {
      makeRenderer = nil
    }
  }
}

/// A new subscriber: its display, and where its snapshots go.
@usableFromInline
struct Subscriber: Sendable {
  @usableFromInline let display: DisplayDescription
  @usableFromInline let sink: Sink

  /// Where a subscriber's snapshots go.
  @usableFromInline
  enum Sink: Sendable {
    /// To closures on the main actor: what installs them in the class's table at slot `sink`, as
    /// subscriber number `serial`.
    case main(install: @Sendable (MainTable, _ sink: UInt32, _ serial: UInt32) -> @MainActor @Sendable () -> Void)
    /// To a stream, off the main actor.
    case stream(StreamSink)

    /// To `onChange` (and the completion to `onFinish`) on the main actor, in a table of `Display`.
    @inlinable
    static func main<Display: CountdownDisplay, Instant: InstantProtocol>(
      _: Display.Type,
      onChange: (@MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void)?,
      onFinish: (@MainActor @Sendable () -> Void)?
    ) -> Sink where Instant.Duration == Duration {
      let hint = onChange.map { Prefetch.contextAddress(of: $0) } ?? 0
      return .main { table, sink, serial in
        let typed = unsafeDowncast(table.typed, to: SinkTable<Display, Instant>.self)
        return { typed.install(sink, serial: serial, onChange: onChange, onFinish: onFinish, hint: hint) }
      }
    }
  }

  @inlinable
  init(display: DisplayDescription, sink: Sink) {
    self.display = display
    self.sink = sink
  }

  /// A subscriber whose snapshots go to `onChange` (and completion to `onFinish`) on the main actor.
  @inlinable
  static func main<Display: CountdownDisplay, Instant: InstantProtocol>(
    display: Display, origin: Instant,
    onChange: @escaping @MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) -> Subscriber where Instant.Duration == Duration {
    Subscriber(
      display: DisplayDescription(display: display, origin: origin),
      sink: .main(Display.self, onChange: onChange, onFinish: onFinish))
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

/// Equality of values whose type may or may not be `Equatable`.
@usableFromInline
enum Equality {
  /// `a == b` when `T` is `Equatable`; otherwise `false` (two such values are never taken as equal).
  @inlinable
  static func areEqual<T>(_ a: T, _ b: T) -> Bool {
    guard let a = a as? any Equatable else { return false }
    return a.isEqual(to: b)
  }
}

extension Equatable {
  @usableFromInline
  func isEqual(to other: Any) -> Bool {
    (other as? Self) == self
  }
}
