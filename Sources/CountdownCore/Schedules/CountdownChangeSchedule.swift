public import Foundation

/// The dates at which a countdown to a date shows a new value through a display, from any date on, one
/// at a time: what a SwiftUI `TimelineView` needs to redraw exactly when the shown value changes and at
/// no other time.
///
/// Made by ``CountdownDisplay/changeSchedule(until:)``. On Apple platforms CountdownKit makes it a
/// SwiftUI `TimelineSchedule`, so a view that shows coarse text, a phase colour or whole minutes needs
/// no engine:
///
/// ```swift
/// let schedule = try AdaptiveDisplay.coarse.changeSchedule(until: deadline)
/// for date in schedule.entries(from: .now).prefix(3) {
///   print(date, schedule.value(at: date))
/// }
/// ```
///
/// ``entries(from:minimumInterval:)`` is lazy: nothing is computed until it is iterated, and each date
/// costs one ``CountdownDisplay/nextChange(after:)`` call and two ``CountdownDisplay/value(remaining:)``
/// calls, so a year of seconds costs nothing until a view asks for its next redraw. The first date is the
/// start itself; each further date is the earliest `Date` at which the value shown has changed, and
/// ``value(at:)`` read at any date gives the value of the latest entry at or before it: the redraw
/// shows the new value, and nothing changes between two entries.
public struct CountdownChangeSchedule<Display: CountdownDisplay>: Sendable {
  /// What is shown.
  public let display: Display
  /// The date the countdown ends at (remaining time zero).
  public let deadline: Date
  /// ``deadline`` as an exact instant.
  let end: WallClockInstant

  /// The changes of a countdown to `deadline` seen through `display`.
  ///
  /// - Throws: ``WallClockTimelineError`` when `deadline` is not finite or outside ``WallClockTimeline/supportedDates``.
  public init(display: Display, until deadline: Date) throws(WallClockTimelineError) {
    self.display = display
    self.deadline = deadline
    end = try WallClockInstant(deadline, as: .targetDate)
  }

  /// The time left at `date`, computed exactly (negative after the deadline).
  ///
  /// A date that cannot be converted exactly (not finite, or outside ``WallClockTimeline/supportedDates``) is
  /// taken as the far past or the far future; not a number, as the deadline.
  public func remaining(at date: Date) -> Duration {
    if let instant = try? WallClockInstant(date, as: .targetDate) { return instant.duration(to: end) }
    let seconds = date.timeIntervalSinceReferenceDate
    if seconds.isNaN { return .zero }
    return seconds > 0 ? Duration(attosecondCount: .min) : Duration(attosecondCount: .max)
  }

  /// The value shown at `date`: read it at each redraw (`context.date` in a `TimelineView`).
  public func value(at date: Date) -> Display.Value {
    display.value(remaining: remaining(at: date))
  }

  /// The dates from `start` on at which the value shown changes: `start` first, then one date per
  /// change, lazily.
  ///
  /// With a `minimumInterval` (SwiftUI's low-frequency mode asks for "major" updates only, such as once
  /// a minute), a change less than that after the previous date is left out unless it is the last: the
  /// value a view shows may then lag by up to `minimumInterval`, and the final value (zero, or the value
  /// after the last change) is always shown.
  ///
  /// - Complexity: O(1) to make; each date costs one ``CountdownDisplay/nextChange(after:)`` and two
  ///   ``CountdownDisplay/value(remaining:)`` calls (more where a display reports changes that show the
  ///   same value, or changes are thinned by `minimumInterval`).
  public func entries(from start: Date, minimumInterval: Duration? = nil) -> Entries {
    Entries(schedule: self, start: start, minimumInterval: minimumInterval)
  }

  /// The dates of a ``CountdownChangeSchedule`` from one date on: a lazy sequence.
  public struct Entries: Sequence, Sendable {
    /// The schedule the dates are of.
    public let schedule: CountdownChangeSchedule
    /// The first date.
    public let start: Date
    /// The least time between two dates but the last (see ``CountdownChangeSchedule/entries(from:minimumInterval:)``).
    public let minimumInterval: Duration?

    /// An iterator that computes the dates one at a time.
    public func makeIterator() -> Iterator {
      Iterator(entries: self)
    }

    /// Walks the schedule's changes by following the display's ``CountdownDisplay/nextChange(after:)``.
    public struct Iterator: IteratorProtocol {
      private let schedule: CountdownChangeSchedule
      private let start: Date
      private let minimumInterval: Duration?
      /// The changes after the start, or `nil` when the start cannot be converted (only it is listed).
      private var changes: CountdownChanges<Display, WallClockInstant>.Iterator?
      /// The last date returned and the value it shows; `nil` before the first.
      private var last: (date: Date, value: Display.Value)?
      /// A change left out for `minimumInterval`, returned if no later one is.
      private var pending: Date?

      init(entries: Entries) {
        schedule = entries.schedule
        start = entries.start
        minimumInterval = entries.minimumInterval.map { Swift.max($0, .zero) }
        if let first = try? WallClockInstant(entries.start, as: .targetDate) {
          let horizon = WallClockInstant(sinceReferenceDate: .seconds(TimelineLimits.dateSeconds))
          var changes = Countdown(end: entries.schedule.end).changes(
            of: entries.schedule.display, from: first, through: horizon
          ).makeIterator()
          _ = changes.next()  // the start, returned as given
          self.changes = changes
        }
      }

      /// The next date, or `nil` when the value shown never changes again.
      public mutating func next() -> Date? {
        guard let last else {
          self.last = (start, schedule.value(at: start))
          return start
        }
        while let change = changes?.next() {
          let date = Date.earliest(atOrAfter: change.at.sinceReferenceDate.attosecondCount)
          // A change closer to the previous date than a `Date` can tell apart shows at that date.
          guard date > last.date else { continue }
          let value = schedule.value(at: date)
          guard value != last.value else {
            // Changed and changed back (too fast to be seen): what is shown is right again.
            pending = nil
            continue
          }
          if let minimumInterval, last.date.addingTimeInterval(minimumInterval.timeInterval) > date {
            pending = date
            continue
          }
          pending = nil
          self.last = (date, value)
          return date
        }
        changes = nil
        guard let date = pending else { return nil }
        pending = nil
        self.last = (date, schedule.value(at: date))
        return date
      }
    }
  }
}

@available(*, unavailable)
extension CountdownChangeSchedule.Entries.Iterator: Sendable {}

extension CountdownDisplay {
  /// When a countdown to `deadline` shows a new value through this display: the dates a SwiftUI
  /// `TimelineView` redraws at (see ``CountdownChangeSchedule``).
  ///
  /// ```swift
  /// let schedule = try AdaptiveDisplay.coarse.changeSchedule(until: order.fittingEndsAt)
  /// ```
  ///
  /// - Throws: ``WallClockTimelineError`` when `deadline` is not finite or outside ``WallClockTimeline/supportedDates``.
  public func changeSchedule(until deadline: Date) throws(WallClockTimelineError) -> CountdownChangeSchedule<Self> {
    try CountdownChangeSchedule(display: self, until: deadline)
  }
}
