/// The main-actor side of one display class: the display, and each subscriber's closures by sink slot.
@MainActor
@usableFromInline
final class SinkTable<Display: CountdownDisplay, Instant: InstantProtocol>: SnapshotTable
where Instant.Duration == Duration {
  @usableFromInline typealias Value = Display.Value
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>
  @usableFromInline typealias OnChange = @MainActor @Sendable (Snapshot) -> Void
  /// The delivery loop of a table (``deliverHere(_:at:skipping:while:)``), as a function of the table.
  @usableFromInline typealias Deliver =
    @MainActor @Sendable (
      SinkTable, UnsafeBufferPointer<Effects.Change>, Tick, Set<SubscriberKey>, Mailbox.CancellationCheck
    ) -> (handled: Int, prefetched: UInt)

  /// A slot's `onChange`, in a struct: a closure that is an array's element directly is stored at the
  /// array's most general calling convention, so that the subscriber's closure would be wrapped in a
  /// conversion thunk (an allocation per subscriber, and a second call per delivery); a struct's
  /// field keeps the closure as the subscriber made it.
  @usableFromInline
  struct Slot {
    @usableFromInline var onChange: OnChange?

    @inlinable init(_ onChange: OnChange?) {
      self.onChange = onChange
    }
  }

  @usableFromInline nonisolated let display: Display
  @usableFromInline nonisolated let origin: Instant
  /// Whether a change's compact value is the shown `Duration` in ticks (rounded and adaptive plans).
  @usableFromInline nonisolated let valueIsTicks: Bool
  /// Each sink slot's `onChange` (nil: none). A closure called from a local copy of this column is
  /// called borrowed: no retain or release of what it captured per call.
  @usableFromInline var onChange: ContiguousArray<Slot> = []
  /// The slots whose subscriber has an `onFinish`.
  @usableFromInline var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]
  /// The serial number of each slot's subscriber (see `SubscriberKey`).
  @usableFromInline var serials: [UInt32] = []
  /// ``deliverHere(_:at:skipping:while:)`` compiled for `Display` and `Instant`. A conformance's
  /// witnesses are compiled once, generic over the display; this function is made in the table's
  /// inlinable initialiser, in the module that names the display, so that the main side's call through
  /// ``SubscriberTable`` runs the delivery loop specialised for it.
  @usableFromInline nonisolated let deliverer: Deliver

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
    deliverer = { table, changes, tick, dropped, check in
      table.deliverHere(changes, at: tick, skipping: dropped, while: check)
    }
  }

  @usableFromInline nonisolated var valueType: Any.Type { Display.Value.self }

  /// Installs a subscriber's closures in slot `sink` as subscriber number `serial`: the one place a
  /// subscriber enters a table.
  @inlinable
  func install(
    _ sink: UInt32, serial: UInt32, onChange: OnChange?, onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    let index = Int(sink)
    if index >= self.onChange.count {
      self.onChange.append(contentsOf: repeatElement(Slot(nil), count: index + 1 - self.onChange.count))
      serials.append(contentsOf: repeatElement(0, count: index + 1 - serials.count))
    }
    self.onChange[index] = Slot(onChange)
    if let onFinish {
      self.onFinish[sink] = onFinish
    } else if !self.onFinish.isEmpty {
      self.onFinish[sink] = nil
    }
    serials[index] = serial
  }

  @inlinable
  func remove(_ sink: UInt32) {
    if Int(sink) < onChange.count { onChange[Int(sink)] = Slot(nil) }
    onFinish[sink] = nil
  }

  @usableFromInline
  func take(_ sink: UInt32) -> (onChange: OnChange?, onFinish: (@MainActor @Sendable () -> Void)?)? {
    guard Int(sink) < onChange.count else { return nil }
    defer { remove(sink) }
    return (onChange[Int(sink)].onChange, onFinish[sink])
  }

  @usableFromInline
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt) {
    deliverer(self, changes, tick, dropped, check)
  }

  /// The delivery loop (see ``SubscriberTable/deliver(_:at:skipping:while:)``): calls each
  /// subscriber's `onChange`, its `onFinish` right after a change that carries its completion, and
  /// lets go of a subscriber after its last change.
  @inlinable
  func deliverHere(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt) {
    let (handled, prefetched, releases) = call(changes, at: tick, skipping: dropped, while: check)
    // After the calls, with the loop's copy of the subscribers gone: removing one does not copy them.
    if releases {
      for change in changes[..<handled] where change.releasesSubscriber { remove(change.sink) }
    }
    return (handled, prefetched)
  }

  /// The calls of ``deliverHere(_:at:skipping:while:)``; also returns whether a change it got through lets
  /// its subscriber go.
  @inlinable
  func call(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt, releases: Bool) {
    // A local copy: no exclusivity check per access, and it keeps every closure alive until the loop
    // is done, even one a callback removes (that changes `onChange`, not the copy).
    let onChange = onChange
    let end = Effects.runLength(changes)
    let prefetched = Self.readAhead(onChange, for: changes[..<end])
    let instant = origin.advanced(by: Ticks.duration(tick))
    let serials = dropped.isEmpty ? [] : serials
    var releases = false
    for index in 0..<end {
      let change = changes[index]
      guard check.holds else { return (index, prefetched, releases) }
      releases = releases || change.releasesSubscriber
      guard Int(change.sink) < onChange.count else { continue }
      if !dropped.isEmpty, dropped.contains(SubscriberKey(change.sinkKey, serial: serials[Int(change.sink)])) {
        continue
      }
      onChange[Int(change.sink)].onChange?(
        Snapshots.snapshot(of: change, at: instant, display: display, valueIsTicks: valueIsTicks))
      if change.finishesSubscriber { onFinish[change.sink]?() }
    }
    return (end, prefetched, releases)
  }

  /// Reads the column entries `changes` will call, in a pass whose reads do not depend on one
  /// another, so that their cache misses overlap instead of following one another in the delivery
  /// loop. Returns what it read, so that the reads are kept.
  @inlinable
  nonisolated static func readAhead(
    _ onChange: ContiguousArray<Slot>, for changes: UnsafeBufferPointer<Effects.Change>.SubSequence
  ) -> UInt {
    var touched: UInt = 0
    for change in changes where Int(change.sink) < onChange.count && onChange[Int(change.sink)].onChange != nil {
      touched &+= 1
    }
    return touched
  }

  @usableFromInline
  func finish(_ sink: UInt32) {
    onFinish[sink]?()
  }

  @usableFromInline
  func serial(of sink: UInt32) -> UInt32 {
    Int(sink) < serials.count ? serials[Int(sink)] : 0
  }
}
