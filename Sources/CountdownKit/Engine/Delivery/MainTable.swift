/// A display class's table on the main actor, its display type erased: the one place where a display's
/// type is erased, made in inlinable code (``make(display:origin:plan:)``) so that its closures are
/// compiled for the display and the clock in the module that names them.
@MainActor
@usableFromInline
final class MainTable: Sendable {
  /// The typed table (a `SinkTable`, or the `FinishTable` of class 0), to find the table of a display.
  @usableFromInline nonisolated let typed: any AnyObject & Sendable
  /// The type of the values the table's subscribers receive.
  nonisolated let valueType: Any.Type
  /// Delivers the changes of the class at the start of a buffer (see `SinkTable.deliver(_:at:skipping:while:)`).
  let deliver: Deliver

  /// Delivers the changes of the class at the start of a buffer, computed at a tick, skipping some
  /// subscribers, while nothing else is cancelled; returns how many it got through and what its
  /// read-ahead pass read.
  @usableFromInline typealias Deliver =
    @MainActor @Sendable (
      UnsafeBufferPointer<Effects.Change>, Tick, Set<SubscriberKey>, Mailbox.CancellationCheck
    ) -> (handled: Int, prefetched: UInt)
  /// Installs a subscriber's box in a slot, as a subscriber number (the one way a subscriber arrives).
  let install: @MainActor @Sendable (UInt32, UInt32, any AnyObject & Sendable) -> Void
  /// Takes a slot's subscriber out (to move it to another display's table).
  let take: @MainActor @Sendable (UInt32) -> (any AnyObject & Sendable)?
  let finish: @MainActor @Sendable (UInt32) -> Void
  let remove: @MainActor @Sendable (UInt32) -> Void
  /// The serial number of a slot's subscriber (see `SubscriberKey`).
  let serial: @MainActor @Sendable (UInt32) -> UInt32

  @usableFromInline
  nonisolated init(
    typed: any AnyObject & Sendable,
    valueType: Any.Type,
    deliver: @escaping Deliver,
    install: @escaping @MainActor @Sendable (UInt32, UInt32, any AnyObject & Sendable) -> Void,
    take: @escaping @MainActor @Sendable (UInt32) -> (any AnyObject & Sendable)?,
    finish: @escaping @MainActor @Sendable (UInt32) -> Void,
    remove: @escaping @MainActor @Sendable (UInt32) -> Void,
    serial: @escaping @MainActor @Sendable (UInt32) -> UInt32
  ) {
    self.typed = typed
    self.valueType = valueType
    self.deliver = deliver
    self.install = install
    self.take = take
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
      typed: table, valueType: Display.Value.self, deliver: { table.deliver($0, at: $1, skipping: $2, while: $3) },
      install: { table.install($0, serial: $1, $2) }, take: { table.take($0) }, finish: { table.finish($0) },
      remove: { table.remove($0) }, serial: { table.serial(of: $0) })
  }

  /// The table of display class 0 (completions only).
  nonisolated static func makeFinishTable() -> MainTable {
    let table = FinishTable()
    return MainTable(
      typed: table, valueType: Void.self, deliver: { changes, _, _, _ in (Effects.runLength(changes), 0) },
      install: { table.install($0, serial: $1, $2) }, take: { table.subscribers.removeValue(forKey: $0) },
      finish: { table.subscribers[$0]?.onFinish() },
      remove: { table.subscribers[$0] = nil },
      serial: { table.serials[$0] ?? 0 })
  }

  /// Whether this is the table of a display equal to `display`, of type `Display` on a clock of
  /// `Instant`s.
  @inlinable
  nonisolated func shows<Display: CountdownDisplay, Instant: InstantProtocol>(_ display: Display, on _: Instant.Type)
    -> Bool where Instant.Duration == Duration
  {
    guard let typed = typed as? SinkTable<Display, Instant> else { return false }
    return Equality.areEqual(typed.display, display)
  }
}
