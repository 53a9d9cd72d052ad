/// The main-actor side of one display class: the display, and the subscribers by sink slot. Only the
/// main actor reads or writes it (installs and removals reach it through the mailbox, in order with the
/// changes), so a delivery takes no lock and touches no object but the subscriber's.
@MainActor
@usableFromInline
final class SinkTable<Display: CountdownDisplay, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>
  @usableFromInline typealias Subscriber = MainSubscriber<Display.Value, Instant>

  @usableFromInline nonisolated let display: Display
  @usableFromInline nonisolated let origin: Instant
  /// Whether a change's compact value is the shown `Duration` in ticks (rounded and adaptive plans).
  @usableFromInline nonisolated let valueIsTicks: Bool
  /// Each sink slot's subscriber (nil: none).
  @usableFromInline var subscribers: ContiguousArray<Subscriber?> = []
  /// The serial number of each slot's subscriber (see `SubscriberKey`).
  @usableFromInline var serials: [UInt32] = []

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
  }

  /// Installs `subscriber` (a ``MainSubscriber`` of the display's value type) in slot `sink` as
  /// subscriber number `serial`.
  @inlinable
  func install(_ sink: UInt32, serial: UInt32, _ subscriber: any AnyObject & Sendable) {
    guard let subscriber = subscriber as? Subscriber else {
      preconditionFailure("Internal inconsistency: \(type(of: subscriber)) installed in \(Self.self)")
    }
    let index = Int(sink)
    if index >= subscribers.count {
      subscribers.append(contentsOf: repeatElement(nil, count: index + 1 - subscribers.count))
      serials.append(contentsOf: repeatElement(0, count: index + 1 - serials.count))
    }
    subscribers[index] = subscriber
    serials[index] = serial
  }

  @inlinable
  func remove(_ sink: UInt32) {
    if Int(sink) < subscribers.count { subscribers[Int(sink)] = nil }
  }

  /// Takes slot `sink`'s subscriber out.
  @inlinable
  func take(_ sink: UInt32) -> Subscriber? {
    guard Int(sink) < subscribers.count else { return nil }
    defer { subscribers[Int(sink)] = nil }
    return subscribers[Int(sink)]
  }

  /// Delivers the changes at the start of `changes` that are of this class (computed at `tick`; the
  /// first one is), skipping the subscribers in `dropped`, as long as `check` holds (checked just
  /// before each call: nothing was cancelled since `dropped` was made). Returns how many changes it got
  /// through, and what the read-ahead pass read.
  @inlinable
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt) {
    // A local copy: no exclusivity check per access, and it keeps every subscriber alive until the
    // loop is done, even one a callback removes (that changes `subscribers`, not the copy).
    let subscribers = subscribers
    let end = Effects.runLength(changes)
    let prefetched = Self.readAhead(subscribers, for: changes[..<end])
    let instant = origin.advanced(by: Ticks.duration(tick))
    let serials = dropped.isEmpty ? [] : serials
    for index in 0..<end {
      let change = changes[index]
      guard check.holds else { return (index, prefetched) }
      guard Int(change.sink) < subscribers.count else { continue }
      if !dropped.isEmpty, dropped.contains(SubscriberKey(change.sinkKey, serial: serials[Int(change.sink)])) {
        continue
      }
      subscribers[Int(change.sink)]?.receive(
        Snapshots.snapshot(of: change, at: instant, display: display, valueIsTicks: valueIsTicks))
    }
    return (end, prefetched)
  }

  /// Reads the subscribers `changes` will call, in a pass whose reads do not depend on one another, so
  /// that their cache misses overlap instead of following one another in the delivery loop. Returns
  /// what it read, so that the reads are kept.
  @inlinable
  nonisolated static func readAhead(
    _ subscribers: ContiguousArray<Subscriber?>, for changes: UnsafeBufferPointer<Effects.Change>.SubSequence
  ) -> UInt {
    var touched: UInt = 0
    for change in changes where Int(change.sink) < subscribers.count {
      if let subscriber = subscribers[Int(change.sink)], subscriber.onChange != nil { touched &+= 1 }
    }
    return touched
  }

  @inlinable
  func finish(_ sink: UInt32) {
    if Int(sink) < subscribers.count { subscribers[Int(sink)]?.finish() }
  }

  /// The serial number of slot `sink`'s subscriber.
  @inlinable
  func serial(of sink: UInt32) -> UInt32 {
    Int(sink) < serials.count ? serials[Int(sink)] : 0
  }
}
