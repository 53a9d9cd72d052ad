/// The main-actor side of one display class: the display, and the closures of its subscribers by sink
/// slot. Only the main actor reads or writes it (installs and removals reach it through the mailbox, in
/// order with the changes), so a delivery takes no lock and touches no object but the subscriber's.
@MainActor
@usableFromInline
final class SinkTable<Display: CountdownDisplay, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline typealias Snapshot = CountdownSnapshot<Display.Value, Instant>

  /// A subscriber's closure, as stored in ``onChange``: boxed in an object, so that a delivery calls it
  /// borrowed from an object the table keeps alive instead of retaining and releasing what it captured
  /// around each call (see ``call(_:with:)``). The closure is kept as the subscriber made it: a bare
  /// closure in an array is held at its most general calling convention, which costs a conversion
  /// thunk per subscriber and a second call per delivery.
  ///
  /// 40 bytes with the object header: the smallest block the allocator hands out past 32 bytes has
  /// room for the hint, so the hint costs nothing here, where a column of hints cost 8 bytes per sink.
  @usableFromInline
  final class Callback: Sendable {
    /// The subscriber's main-actor closure, its isolation left out of its type (the representation
    /// is the same): only ever called on the main actor, by ``call(_:with:)`` from `deliver`.
    @usableFromInline let call: @Sendable (Snapshot) -> Void
    /// Where the closure, as the app made it, keeps what it captured (see
    /// ``Prefetch/contextAddress(of:)``): read ahead of a delivery, never written through.
    @usableFromInline let hint: UInt

    @inlinable
    init(_ call: @escaping @MainActor @Sendable (Snapshot) -> Void, hint: UInt) {
      self.call = unsafeBitCast(call, to: (@Sendable (Snapshot) -> Void).self)
      self.hint = hint
    }
  }

  /// Calls `callback` with `snapshot`, borrowed: the caller keeps the box alive. Nonisolated, so that
  /// the closure given to `_withUnsafeGuaranteedRef` is not an isolated closure, which Swift 6 checks
  /// at run time on every call; the caller is on the main actor (see ``Callback/call``).
  @inlinable
  nonisolated static func call(_ callback: Unmanaged<Callback>, with snapshot: Snapshot) {
    callback._withUnsafeGuaranteedRef { $0.call(snapshot) }
  }

  @usableFromInline nonisolated let display: Display
  @usableFromInline nonisolated let origin: Instant
  /// Whether a change's compact value is the shown `Duration` in ticks (rounded and adaptive plans).
  @usableFromInline nonisolated let valueIsTicks: Bool
  /// Each sink slot's closure (nil: none, or no subscriber).
  @usableFromInline var onChange: [Callback?] = []
  /// The serial number of each slot's subscriber (see `SubscriberKey`).
  @usableFromInline var serials: [UInt32] = []
  @usableFromInline var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]
  /// Subscribers added (under the engine's lock, on any thread) and not yet installed by the main
  /// actor, in the order of their `install` events in the mailbox.
  @usableFromInline nonisolated let pending = Lock(PendingQueue<(sink: UInt32, serial: UInt32, closures: Closures)>())

  @usableFromInline typealias Closures = SubscriberClosures<Display.Value, Instant>

  @inlinable
  nonisolated init(display: Display, origin: Instant, plan: DisplayPlan?) {
    self.display = display
    self.origin = origin
    valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
  }

  @inlinable
  func install(
    _ sink: UInt32, serial: UInt32, onChange: (@MainActor @Sendable (Snapshot) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?,
    hint: UInt
  ) {
    let index = Int(sink)
    if index >= self.onChange.count {
      self.onChange.append(contentsOf: repeatElement(nil, count: index + 1 - self.onChange.count))
      serials.append(contentsOf: repeatElement(0, count: index + 1 - serials.count))
    }
    // Not `map(Callback.init)`: through a generic function the closure would be converted twice.
    if let onChange { self.onChange[index] = Callback(onChange, hint: hint) } else { self.onChange[index] = nil }
    serials[index] = serial
    if let onFinish { self.onFinish[sink] = onFinish }
  }

  /// Queues a subscriber's closures for ``installNext()``.
  @inlinable
  nonisolated func enqueue(_ closures: Closures, sink: UInt32, serial: UInt32) {
    pending.withLock { $0.append((sink, serial, closures)) }
  }

  /// Installs the oldest queued subscriber.
  @inlinable
  func installNext() {
    guard let next = pending.withLock({ $0.popFirst() }) else { return }
    install(next.closures, sink: next.sink, serial: next.serial)
  }

  /// Installs a subscriber's closures in slot `sink` as subscriber number `serial`.
  @inlinable
  func install(_ closures: Closures, sink: UInt32, serial: UInt32) {
    install(sink, serial: serial, onChange: closures.onChange, onFinish: closures.onFinish, hint: closures.hint)
  }

  @inlinable
  func remove(_ sink: UInt32) {
    if Int(sink) < onChange.count { onChange[Int(sink)] = nil }
    onFinish[sink] = nil
  }

  /// Delivers the changes at the start of `changes` that are of this class (computed at `tick`; the
  /// first one is), skipping the subscribers in `dropped`, as long as `check` holds (checked just
  /// before each call: nothing was cancelled since `dropped` was made). Returns how many changes it got
  /// through, and what the prefetch pass read.
  @inlinable
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: CancellationCheck
  ) -> (handled: Int, prefetched: UInt) {
    // Local copies: no exclusivity check per access. Nothing installs or removes a subscriber during a
    // delivery (that only happens between deliveries, see `MainSide`), so no copy is ever made.
    let sinks = onChange
    let (prefetched, end) = sinks.withUnsafeBufferPointer { Self.readAhead($0, for: changes) }
    let instant = origin.advanced(by: Ticks.duration(tick))
    let serials = dropped.isEmpty ? [] : serials
    // `sinks` keeps every box alive until the loop is done (a subscriber's callback that removes a
    // subscriber changes `onChange`, a copy), so each closure is called borrowed from its box.
    return sinks.withUnsafeBufferPointer { sinks in
      for index in 0..<end {
        let change = changes[index]
        guard check.holds else { return (index, prefetched) }
        guard Int(change.sink) < sinks.count else { continue }
        if !dropped.isEmpty, dropped.contains(SubscriberKey(change.sinkKey, serial: serials[Int(change.sink)])) {
          continue
        }
        guard let callback = sinks[Int(change.sink)].map(Unmanaged.passUnretained) else { continue }
        let snapshot = Snapshots.snapshot(of: change, at: instant, display: display, valueIsTicks: valueIsTicks)
        Self.call(callback, with: snapshot)
      }
      return (end, prefetched)
    }
  }

  /// Reads what the deliveries of the changes at the start of `changes` whose display class is that of
  /// the first one will read first (their entries in `sinks`, the objects those point to, what the
  /// closures captured), in passes whose reads do not depend on one another, so that the cache misses
  /// overlap (see ``Prefetch``). Returns what it read and how many changes those are.
  @inlinable
  nonisolated static func readAhead(
    _ sinks: UnsafeBufferPointer<Callback?>, for changes: UnsafeBufferPointer<Effects.Change>
  ) -> (touched: UInt, end: Int) {
    let end = Effects.runLength(changes)
    var touched: UInt = 0
    for change in changes[..<end] where Int(change.sink) < sinks.count && sinks[Int(change.sink)] != nil {
      touched &+= 1
    }
    for change in changes[..<end] where Int(change.sink) < sinks.count {
      guard let callback = sinks[Int(change.sink)].map(Unmanaged.passUnretained) else { continue }
      let hint = callback._withUnsafeGuaranteedRef { $0.hint }
      if let context = UnsafeRawPointer(bitPattern: hint) { touched &+= UInt(context.load(as: UInt8.self)) }
    }
    return (touched, end)
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

/// The main-actor side of display class 0: countdowns that show nothing and only report completion.
@MainActor
final class FinishTable: Sendable {
  var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]
  /// The serial number of each slot's subscriber (see `SinkTable.serials`).
  var serials: [UInt32: UInt32] = [:]
  /// Subscribers not yet installed (see `SinkTable.pending`).
  nonisolated let pending = Lock(
    PendingQueue<(sink: UInt32, serial: UInt32, onFinish: @MainActor @Sendable () -> Void)>())

  nonisolated init() {}

  /// Queues a subscriber for ``installNext()``.
  nonisolated func enqueue(_ onFinish: @escaping @MainActor @Sendable () -> Void, sink: UInt32, serial: UInt32) {
    pending.withLock { $0.append((sink, serial, onFinish)) }
  }

  /// Installs the oldest queued subscriber.
  func installNext() {
    guard let next = pending.withLock({ $0.popFirst() }) else { return }
    onFinish[next.sink] = next.onFinish
    serials[next.sink] = next.serial
  }
}

/// A first-in, first-out queue that lets go of its storage whenever it is emptied.
@usableFromInline
struct PendingQueue<Element: Sendable>: Sendable {
  @usableFromInline var items: [Element] = []
  @usableFromInline var head = 0

  @inlinable
  init() {}

  @inlinable
  mutating func append(_ element: Element) {
    items.append(element)
  }

  @inlinable
  mutating func popFirst() -> Element? {
    guard head < items.count else { return nil }
    defer {
      head += 1
      if head == items.count { self = PendingQueue() }
    }
    return items[head]
  }
}

/// Builds the snapshots subscribers receive from the core's changes.
@usableFromInline
package enum Snapshots {
  /// The snapshot `change` stands for, computed at `instant`.
  @inlinable
  package static func snapshot<Display: CountdownDisplay, Instant: InstantProtocol>(
    of change: Effects.Change, at instant: Instant, display: Display, valueIsTicks: Bool
  ) -> CountdownSnapshot<Display.Value, Instant> where Instant.Duration == Duration {
    let remaining = Ticks.duration(change.remaining)
    // A compact value held at the end of the tick range stands for a larger one: ask the display.
    let value =
      valueIsTicks && change.value != Ticks.max && change.value != Ticks.min
      ? (Ticks.duration(change.value) as? Display.Value) ?? display.value(remaining: remaining)
      : display.value(remaining: remaining)
    return CountdownSnapshot(
      value: value, remaining: remaining, progress: progress(remaining: change.remaining, total: change.total),
      isPaused: change.isPaused, isFinished: change.isFinished, instant: instant)
  }

  /// What `Countdown.progress(at:)` gives for these remaining and total times (total -1: none).
  @inlinable
  package static func progress(remaining: Tick, total: Tick) -> Double? {
    guard total > 0 else { return nil }
    if remaining <= 0 { return 0 }
    if remaining >= total { return 1 }
    return Ticks.duration(remaining) / Ticks.duration(total)
  }
}
