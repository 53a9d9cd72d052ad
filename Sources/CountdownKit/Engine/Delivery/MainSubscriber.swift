/// A main-actor subscriber's closures, boxed where it is added, on their way to its display class's
/// table: the install event carries the box, and the table keeps the closures in its columns.
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
}
