/// Every instant in a range at which a display's value changes for one countdown: a lazy sequence.
///
/// Made by ``Countdown/changes(of:from:through:)``. The first element is the range's start with the
/// value shown there; each further element is an instant at which the value differs from the one
/// before, with the value from that instant on. Nothing is computed until it is iterated, and each
/// step costs one ``CountdownDisplay/nextChange(after:)`` call (more only where a display such as
/// ``MappedDisplay`` reports a change that is not visible, which is skipped).
///
/// ```swift
/// let turn = Countdown(duration: .seconds(3), startingAt: start)
/// for change in turn.changes(of: .seconds, from: start, through: start + .seconds(10)) {
///   print(change.at, change.value)   // start 3 s, +1 s 2 s, +2 s 1 s, +3 s 0 s
/// }
/// ```
public struct CountdownChanges<Display: CountdownDisplay, Instant: InstantProtocol>: LazySequenceProtocol, Sendable
where Instant.Duration == Duration {
  /// A change: the instant and the value from then on.
  public typealias Element = CountdownChange<Instant, Display.Value>

  /// The countdown whose changes are listed.
  public let countdown: Countdown<Instant>
  /// The display whose value changes.
  public let display: Display
  /// The first instant of the range.
  public let start: Instant
  /// The last instant of the range (inclusive).
  public let end: Instant

  /// The changes of `countdown` seen through `display` in `start...end`.
  public init(countdown: Countdown<Instant>, display: Display, start: Instant, end: Instant) {
    self.countdown = countdown
    self.display = display
    self.start = start
    self.end = end
  }

  /// An iterator that computes the changes one at a time.
  public func makeIterator() -> Iterator {
    Iterator(changes: self)
  }

  /// Walks a countdown's changes by following the display's ``CountdownDisplay/nextChange(after:)``.
  public struct Iterator: IteratorProtocol {
    private let display: Display
    private let end: Instant
    /// The countdown's end while it runs; `nil` while paused (the value then never changes).
    private let runningEnd: Instant?
    /// The instant of the last element returned (or of the first, not yet returned).
    private var position: Instant
    /// The remaining time at ``position``.
    private var remaining: Duration
    /// The value from ``position`` on, or `nil` before the first element.
    private var value: Display.Value?
    private var isDone: Bool

    init(changes: CountdownChanges) {
      display = changes.display
      end = changes.end
      runningEnd = changes.countdown.end
      position = changes.start
      remaining = changes.countdown.remaining(at: changes.start)
      value = nil
      isDone = changes.end < changes.start
    }

    /// The next change, or `nil` past the end of the range.
    public mutating func next() -> Element? {
      guard !isDone else { return nil }
      guard let current = value else {
        let first = display.value(remaining: remaining)
        value = first
        if runningEnd == nil { isDone = true }
        return Element(at: position, value: first)
      }
      // Paused countdowns are done after their first element, so the countdown runs: the instant at
      // which `n` is left lies `remaining - n` after `position`.
      while let next = display.nextChange(after: remaining) {
        precondition(
          next < remaining,
          "\(Display.self).nextChange(after: \(remaining)) returned \(next), which is not below it (CountdownDisplay contract)"
        )
        let step = remaining - next
        guard step <= position.duration(to: end) else { break }
        position = position.advanced(by: step)
        remaining = next
        let shown = display.value(remaining: next)
        if shown != current {
          value = shown
          return Element(at: position, value: shown)
        }
      }
      isDone = true
      return nil
    }
  }
}

@available(*, unavailable)
extension CountdownChanges.Iterator: Sendable {}

extension Countdown {
  /// Every instant in `start...end` at which `display`'s value changes, with the value from then on.
  ///
  /// The first element is `start` with the value shown at `start`; then one element per change, in
  /// order, none missed and none invented (a display's change that shows the same value is skipped). A
  /// paused countdown never changes: its schedule is the one first element. An `end` before `start`
  /// gives an empty sequence. The sequence is lazy; bound it with `prefix(_:)` for long ranges.
  ///
  /// Use it where code cannot run at each change: a WidgetKit timeline, a scheduled notification, a
  /// pre-rendered list of frames. ``changes(of:from:through:on:limit:)`` gives the same as `Date`s.
  ///
  /// - Complexity: O(1) to make; each element costs one ``CountdownDisplay/nextChange(after:)``
  ///   call plus one per skipped invisible change.
  public func changes<Display: CountdownDisplay>(
    of display: Display,
    from start: Instant,
    through end: Instant
  ) -> CountdownChanges<Display, Instant> {
    CountdownChanges(countdown: self, display: display, start: start, end: end)
  }
}
