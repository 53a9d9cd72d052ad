/// A display class's table on the main actor, as the engine and the main side hold it: its
/// subscribers by sink slot, and what the main actor does with them. ``SinkTable`` (the subscribers of
/// a display) and ``FinishTable`` (class 0: countdowns that only report their completion) are the two
/// kinds.
///
/// Only the main actor calls into a table (installs and removals reach it through the mailbox, in order
/// with the changes), so a delivery takes no lock and touches nothing but the closure it calls.
@usableFromInline
protocol SubscriberTable: AnyObject, Sendable {
  /// The type of the values its subscribers receive.
  nonisolated var valueType: Any.Type { get }

  /// Delivers the changes at the start of `changes` that are of this class (computed at `tick`; the
  /// first one is), skipping the subscribers in `dropped`, as long as `check` holds (checked just
  /// before each call: nothing was cancelled since `dropped` was made). Returns how many changes it got
  /// through, and what its read-ahead pass read.
  @MainActor
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt)

  /// Calls slot `sink`'s completion, if it has one.
  @MainActor func finish(_ sink: UInt32)
  /// Forgets slot `sink`'s subscriber.
  @MainActor func remove(_ sink: UInt32)
  /// The serial number of slot `sink`'s subscriber (see ``SubscriberKey``).
  @MainActor func serial(of sink: UInt32) -> UInt32
}

/// A table whose subscribers receive snapshots of `Value` on a clock of `Instant`s: a subscriber can
/// move from one such table to another (its countdown shown through another display with values of the
/// same type: ``CountdownHandle/setDisplay(_:)``).
@usableFromInline
protocol SnapshotTable<Value, Instant>: SubscriberTable {
  associatedtype Value: Equatable & Sendable
  associatedtype Instant: InstantProtocol where Instant.Duration == Duration

  /// Takes slot `sink`'s subscriber out: its closures, or nil if the slot has none.
  @MainActor
  func take(_ sink: UInt32) -> (
    onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?
  )?
}
