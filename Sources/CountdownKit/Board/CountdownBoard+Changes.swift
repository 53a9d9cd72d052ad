// A board that keeps every row's value (`BoardValues.everyRow`): the rows whose value changed, once per
// wake-up, on the main actor and off it; how many rows show each value.

extension CountdownBoard {
  /// A row whose value changed.
  public struct Change: Sendable {
    /// The row.
    public let id: ID
    /// What the row shows now.
    public let value: Display.Value
    /// Whether the row is paused.
    public let isPaused: Bool
    /// Whether no time is left in the row.
    public let isFinished: Bool

    @inlinable
    init(id: ID, value: Display.Value, isPaused: Bool, isFinished: Bool) {
      self.id = id
      self.value = value
      self.isPaused = isPaused
      self.isFinished = isFinished
    }
  }

  /// The rows whose value changed at one wake-up (or since the last batch, for a consumer that fell
  /// behind), each once, with its newest value.
  ///
  /// Values are computed as they are read: a batch of a hundred thousand rows is a hundred thousand
  /// small records in one array, not snapshots.
  public struct Changes: RandomAccessCollection, Sendable {
    @usableFromInline let changes: [LiveBatches<ID>.Change]
    @usableFromInline let display: Display
    /// The display's plan, when its values are durations in ticks (the engine gives the value).
    @usableFromInline let plan: DisplayPlan?

    init(_ changes: [LiveBatches<ID>.Change], display: Display) {
      self.changes = changes
      self.display = display
      let plan = DisplayPlan.make(for: display)
      self.plan = DisplayPlan.valueIsTicks(plan, for: Display.Value.self) ? plan : nil
    }

    /// The position of the first change.
    @inlinable public var startIndex: Int { 0 }
    /// The position after the last change.
    @inlinable public var endIndex: Int { changes.count }

    /// The change at `position`.
    @inlinable
    public subscript(position: Int) -> Change {
      let (id, entry) = changes[position]
      return Change(
        id: id, value: value(remaining: entry.remaining), isPaused: entry.flags & 1 != 0,
        isFinished: entry.flags & 2 != 0)
    }

    /// The IDs of the rows that changed, in order.
    @inlinable
    public var ids: some RandomAccessCollection<ID> { changes.lazy.map(\.id) }

    /// What the display shows with `remaining` ticks left. For a display whose values are durations in
    /// ticks, the engine gives the value itself.
    @inlinable
    func value(remaining: Tick) -> Display.Value {
      if plan != nil, let value = Ticks.duration(remaining) as? Display.Value { return value }
      return display.value(remaining: Ticks.duration(remaining))
    }
  }

  /// Calls `handler` on the main actor once per wake-up with the rows whose value changed (added,
  /// moved, paused or resumed rows included), each with its new value; a main actor that falls behind
  /// gets one batch with each row's newest value.
  ///
  /// For a board made with ``BoardValues/everyRow``; on another board the handler is never called.
  /// Handlers run in the engine's main-actor hop of the wake-up, after the slots' updates. The handler
  /// stays as long as you keep the observation this returns (see ``BoardObservation``), and no longer
  /// than the board: the values of a board that is gone end with it.
  public func onChanges(_ handler: @escaping @MainActor @Sendable (Changes) -> Void) -> BoardObservation {
    let display = display
    return batches?.add { changes in handler(Changes(changes, display: display)) } ?? .none
  }

  /// The rows whose value changed from now on, a batch per wake-up, off the main actor, for one
  /// consumer; a consumer that falls behind gets one batch with each row's newest value. Each call
  /// subscribes anew: the sequence sees the changes made from the call on, even those made before its
  /// iteration starts. It ends when the board goes away, and at once on a board made without
  /// ``BoardValues/everyRow``.
  public func changes() -> BoardChangeSequence<ID, Display, C> {
    BoardChangeSequence(subscription: batches.map(BoardChangeSequence.Subscription.init), display: display)
  }

  /// How many rows show each value, for a board made with ``BoardValues/everyRow`` whose display has
  /// few values (phases, or progress of at most 4,096 steps); empty otherwise.
  ///
  /// - Complexity: O(number of values), under the engine's lock: the counts are kept as rows change.
  public var counts: [(value: Display.Value, count: Int)] {
    let owner = UInt16(number + 1)
    let counted = engine.state.withLock { state in state.core.live(of: owner)?.counts } ?? nil
    guard let counted else { return [] }
    return counted.sorted { $0.value.remaining > $1.value.remaining }.map {
      (display.value(remaining: Ticks.duration($0.value.remaining)), $0.value.count)
    }
  }

  /// What row `id` shows now, or `nil` if the board has no such row.
  public func value(of id: ID) -> Display.Value? {
    snapshot(for: id)?.value
  }
}

/// The rows whose value changed on a ``CountdownBoard`` that keeps every row's value, a batch per
/// wake-up, for one consumer (see ``CountdownBoard/changes()``).
public struct BoardChangeSequence<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>: AsyncSequence, Sendable
where C.Duration == Duration {
  /// A batch of changed rows.
  public typealias Element = CountdownBoard<ID, Display, C>.Changes
  /// Never fails.
  public typealias Failure = Never

  let subscription: Subscription?
  let display: Display

  /// An iterator that waits for the next batch. The sequence has one consumer: iterators made from one
  /// sequence share its batches.
  public func makeAsyncIterator() -> Iterator {
    Iterator(subscription: subscription, display: display)
  }

  /// Takes the board's batches for one consumer; lets go of them when it goes.
  final class Subscription: Sendable {
    let batches: LiveBatches<ID>
    let key: UInt64
    let wake: AsyncStream<Void>

    init(_ batches: LiveBatches<ID>) {
      self.batches = batches
      (key, wake) = batches.subscribe()
    }

    deinit {
      batches.unsubscribe(key)
    }
  }

  /// Waits for the next batch of changed rows.
  public struct Iterator: AsyncIteratorProtocol {
    let subscription: Subscription?
    let display: Display
    var wake: AsyncStream<Void>.Iterator?

    init(subscription: Subscription?, display: Display) {
      self.subscription = subscription
      self.display = display
      wake = subscription?.wake.makeAsyncIterator()
    }

    /// The next batch; `nil` once the board is gone or the task is cancelled.
    public mutating func next() async -> Element? {
      guard let subscription else { return nil }
      while await wake?.next() != nil {
        let changes = subscription.batches.take(for: subscription.key)
        if !changes.isEmpty { return Element(changes, display: display) }
      }
      return nil
    }
  }
}

@available(*, unavailable)
extension BoardChangeSequence.Iterator: Sendable {}
