/// A main-actor subscriber: its closures, in a box made where it is added and kept in its display
/// class's table on the main actor, in the slot the engine gave it.
///
/// The table calls ``receive(_:)`` on the box it holds: the closure is called borrowed from the box
/// (a `let` of an object the table keeps alive), so a delivery retains and releases nothing.
@usableFromInline
final class MainSubscriber<Value: Equatable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  @usableFromInline let onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?
  @usableFromInline let onFinish: (@MainActor @Sendable () -> Void)?

  @inlinable
  init(
    onChange: (@MainActor @Sendable (CountdownSnapshot<Value, Instant>) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    self.onChange = onChange
    self.onFinish = onFinish
  }

  /// Hands the subscriber a snapshot.
  @MainActor @inlinable
  func receive(_ snapshot: CountdownSnapshot<Value, Instant>) {
    onChange?(snapshot)
  }

  /// Tells the subscriber its countdown finished.
  @MainActor @inlinable
  func finish() {
    onFinish?()
  }
}
