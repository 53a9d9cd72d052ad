/// Where a new subscriber's snapshots go: what ``EngineState/install(_:in:table:)`` takes.
@usableFromInline
enum SubscriberSink: Sendable {
  /// To the main actor: the subscriber's box (a ``MainSubscriber`` of its display's value type, or a
  /// ``FinishTable/Subscriber`` for countdowns that show nothing).
  case main(any AnyObject & Sendable)
  /// To a stream, off the main actor.
  case stream(StreamSink)
}
