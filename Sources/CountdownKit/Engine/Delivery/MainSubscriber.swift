/// A main-actor subscriber on its way into its display class's table: what
/// `EngineState.install(_:in:delivery:isOnMainActor:)` takes. It holds its table, typed; the install
/// event that carries it to the main actor (or an install made at once, on the main actor) calls
/// ``install(_:serial:)``.
@usableFromInline
protocol MainSubscriber: Sendable {
  /// Installs the subscriber in slot `sink` of its table, as subscriber number `serial`.
  @MainActor func install(_ sink: UInt32, serial: UInt32)
}

/// A subscriber's closures, for the table of its display.
@usableFromInline
struct SnapshotSubscriber<Display: CountdownDisplay, Instant: InstantProtocol>: MainSubscriber
where Instant.Duration == Duration {
  @usableFromInline let table: SinkTable<Display, Instant>
  @usableFromInline let onChange: (@MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void)?
  @usableFromInline let onFinish: (@MainActor @Sendable () -> Void)?

  @inlinable
  init(
    table: SinkTable<Display, Instant>,
    onChange: (@MainActor @Sendable (CountdownSnapshot<Display.Value, Instant>) -> Void)?,
    onFinish: (@MainActor @Sendable () -> Void)?
  ) {
    self.table = table
    self.onChange = onChange
    self.onFinish = onFinish
  }

  @inlinable
  @MainActor
  func install(_ sink: UInt32, serial: UInt32) {
    table.install(sink, serial: serial, onChange: onChange, onFinish: onFinish)
  }
}

/// A countdown that shows nothing: its completion, for the table of display class 0.
struct FinishSubscriber: MainSubscriber {
  let table: FinishTable
  let onFinish: @MainActor @Sendable () -> Void

  @MainActor
  func install(_ sink: UInt32, serial: UInt32) {
    table.install(sink, serial: serial, onFinish: onFinish)
  }
}

/// A subscriber that moves to the table of another display whose values are of the same type: its
/// countdown is shown through that display from now on (``CountdownHandle/setDisplay(_:)``).
@usableFromInline
struct MovingSubscriber<Display: CountdownDisplay, Instant: InstantProtocol>: MainSubscriber
where Instant.Duration == Duration {
  /// The table it leaves, and its slot there.
  let from: any SnapshotTable<Display.Value, Instant>
  let sink: UInt32
  let table: SinkTable<Display, Instant>

  @usableFromInline
  init(from: any SnapshotTable<Display.Value, Instant>, sink: UInt32, to table: SinkTable<Display, Instant>) {
    self.from = from
    self.sink = sink
    self.table = table
  }

  @MainActor
  @usableFromInline
  func install(_ sink: UInt32, serial: UInt32) {
    guard let subscriber = from.take(self.sink) else { return }
    table.install(sink, serial: serial, onChange: subscriber.onChange, onFinish: subscriber.onFinish)
  }
}
