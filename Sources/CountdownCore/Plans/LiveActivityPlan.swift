public import Foundation

/// A Live Activity for a countdown within the system's limits: its content states with their dates and
/// stale dates, when it ends, and what it shows from then on.
///
/// Made by ``Countdown/liveActivity(of:at:on:startedAt:maximumUpdates:dismissAfterFinish:)``. The
/// system runs a Live Activity for at most ``maximumDuration`` (8 hours), then ends it; an ended
/// activity stays on the Lock Screen for at most ``lockScreenLinger`` (4 hours) more, showing its
/// last content. The content changes only when the app (or its server, by push) sends an update, and
/// updates are budgeted; the seconds need none, since ``ContentState/timerInterval`` goes to
/// `Text(timerInterval:countsDown:)` and `ProgressView(timerInterval:countsDown:)`, which the system
/// counts down by itself.
///
/// - ``updates``: the content to start (or update) the activity with now, then each content change the
///   display will make while the activity runs (a phase colour, a coarse value), to send at its date.
///   Each has a stale date: the date its value stops being true. Give it to ActivityKit
///   (`ActivityContent(state:staleDate:)`) and show ``ContentState/value`` only while
///   `context.isStale` is false: an update that did not arrive then never shows a wrong value, and the
///   timer goes on.
/// - ``ending``: either the app ends the activity at the finish, with the finished state and a
///   dismissal date (`ActivityUIDismissalPolicy.after(_:)`), or, for a countdown that outlasts the
///   8 hours (or is paused), the system ends it and the Lock Screen keeps its last update until at most
///   4 hours later.
/// - ``earliestStartCoveringFinish``: when the countdown ends more than 8 hours after the activity
///   starts, the earliest start whose 8 hours reach the finish (a push-to-start then, rather than a
///   start now).
public struct LiveActivityPlan<Value: Hashable & Codable & Sendable>: Equatable, Sendable {
  /// What the activity shows: use it as (or inside) your `ActivityAttributes.ContentState`.
  public struct ContentState: Hashable, Codable, Sendable {
    /// While the countdown runs: the interval the system counts down by itself (its upper bound is the
    /// end); `nil` while paused.
    public var timerInterval: ClosedRange<Date>?
    /// While the countdown is paused: the frozen time left.
    public var pausedRemaining: Duration?
    /// The display's value (a phase, a coarse time): true until the update's stale date.
    public var value: Value?
    /// Whether no time is left (true until the stale date).
    public var isFinished: Bool

    /// A content state with every field given.
    public init(timerInterval: ClosedRange<Date>?, pausedRemaining: Duration?, value: Value?, isFinished: Bool) {
      self.timerInterval = timerInterval
      self.pausedRemaining = pausedRemaining
      self.value = value
      self.isFinished = isFinished
    }
  }

  /// Content to send at a date.
  public struct Update: Equatable, Sendable {
    /// When to send it (the first update: now).
    public var date: Date
    /// The content.
    public var state: ContentState
    /// When its value and finished flag stop being true (the next change); `nil` if never, unless the
    /// countdown is changed from outside.
    public var staleDate: Date?

    /// An update with every field given.
    public init(date: Date, state: ContentState, staleDate: Date?) {
      self.date = date
      self.state = state
      self.staleDate = staleDate
    }
  }

  /// How the activity ends.
  public struct Ending: Equatable, Sendable {
    /// When it ends: the finish, or the end of the system's 8 hours.
    public var date: Date
    /// Whether the system ends it (the countdown outlasts the activity, or is paused), rather than the
    /// app at the finish.
    public var isBySystem: Bool
    /// What it shows once ended: the finished state (ended by the app) or the last update's (by the
    /// system).
    public var state: ContentState
    /// When ``state``'s value stops being true; `nil` if never.
    public var staleDate: Date?
    /// When it leaves the Lock Screen at the latest: at most 4 hours after ``date``.
    public var dismissalDate: Date

    /// An ending with every field given.
    public init(date: Date, isBySystem: Bool, state: ContentState, staleDate: Date?, dismissalDate: Date) {
      self.date = date
      self.isBySystem = isBySystem
      self.state = state
      self.staleDate = staleDate
      self.dismissalDate = dismissalDate
    }
  }

  /// How long the system lets a Live Activity run: 8 hours.
  public static var maximumDuration: Duration { .seconds(8 * 3_600) }
  /// How long an ended Live Activity may stay on the Lock Screen: 4 hours.
  public static var lockScreenLinger: Duration { .seconds(4 * 3_600) }

  /// The date the plan was made for: the first update's, if any.
  public var date: Date
  /// The content now (the first), then each change to send while the activity runs, by date; empty
  /// when the activity is over already (finished, or past its 8 hours).
  public var updates: [Update]
  /// How and when the activity ends.
  public var ending: Ending
  /// For a countdown that ends after the activity's 8 hours: the earliest start whose 8 hours reach
  /// the finish; `nil` otherwise.
  public var earliestStartCoveringFinish: Date?

  /// A plan with every field given;
  /// ``Countdown/liveActivity(of:at:on:startedAt:maximumUpdates:dismissAfterFinish:)`` makes them.
  public init(date: Date, updates: [Update], ending: Ending, earliestStartCoveringFinish: Date?) {
    self.date = date
    self.updates = updates
    self.ending = ending
    self.earliestStartCoveringFinish = earliestStartCoveringFinish
  }

  /// What the activity shows at `date` if every update was sent on time, with that content's stale
  /// date; `nil` before the first update and once it has left the Lock Screen.
  public func content(at date: Date) -> (state: ContentState, staleDate: Date?)? {
    if date >= ending.dismissalDate { return nil }
    if date >= ending.date { return (ending.state, ending.staleDate) }
    guard let update = updates.last(where: { $0.date <= date }) else { return nil }
    return (update.state, update.staleDate)
  }
}
