/// The main-actor side of one display class: the display, and each subscriber's closures by sink slot.
/// Only the main actor reads or writes it (installs and removals reach it through the mailbox, in order
/// with the changes), so a delivery takes no lock and touches nothing but the closure it calls.
@MainActor
@usableFromInline
final class SinkTable<Display: CountdownDisplay, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>
  @usableFromInline typealias Subscriber = MainSubscriber<Display.Value, Instant>
  @usableFromInline typealias OnChange = @MainActor @Sendable (Snapshot) -> Void

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

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
  }

  /// Installs the closures `subscriber` (a ``MainSubscriber`` of the display's value type) brought in
  /// slot `sink`, as subscriber number `serial`.
  @inlinable
  func install(_ sink: UInt32, serial: UInt32, _ subscriber: any AnyObject & Sendable) {
    guard let subscriber = subscriber as? Subscriber else {
      preconditionFailure("Internal inconsistency: \(type(of: subscriber)) installed in \(Self.self)")
    }
    install(sink, serial: serial, onChange: subscriber.onChange, onFinish: subscriber.onFinish)
  }

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

  /// Takes slot `sink`'s subscriber out (its closures, boxed again).
  @inlinable
  func take(_ sink: UInt32) -> Subscriber? {
    guard Int(sink) < onChange.count else { return nil }
    defer { remove(sink) }
    return Subscriber(onChange: onChange[Int(sink)].onChange, onFinish: onFinish[sink])
  }

  /// Delivers the changes at the start of `changes` that are of this class (computed at `tick`; the
  /// first one is), skipping the subscribers in `dropped`, as long as `check` holds (checked just
  /// before each call: nothing was cancelled since `dropped` was made); calls a subscriber's `onFinish`
  /// right after a change that carries its completion, and lets go of a subscriber after its last
  /// change. Returns how many changes it got through, and what the read-ahead pass read.
  @inlinable
  func deliver(
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

  /// The calls of ``deliver(_:at:skipping:while:)``; also returns whether a change it got through lets
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

  @inlinable
  func finish(_ sink: UInt32) {
    onFinish[sink]?()
  }

  /// The serial number of slot `sink`'s subscriber.
  @inlinable
  func serial(of sink: UInt32) -> UInt32 {
    Int(sink) < serials.count ? serials[Int(sink)] : 0
  }
}
