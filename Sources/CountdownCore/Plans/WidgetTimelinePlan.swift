public import Foundation

/// A WidgetKit timeline for a countdown, within a budget of reloads: the entries, and when to ask for
/// the next timeline.
///
/// Made by ``Countdown/widgetTimeline(of:at:on:reloadsPerDay:maximumEntries:)``. A widget does not run
/// while it is shown: WidgetKit switches between the entries of its timeline by itself and asks for a
/// new timeline when the reload policy says so, a limited number of times a day (Apple documents 40 to
/// 70 for a widget the user looks at often). Each entry holds what the widget shows from its date on:
///
/// - ``Entry/value``, the display's value (a coarse time such as "1.5 hours", a phase colour), exact
///   from the entry's date until the next entry's;
/// - ``Entry/timerInterval`` while the countdown runs, for `Text(timerInterval:countsDown:)` and
///   `ProgressView(timerInterval:countsDown:)`, which the system counts down by itself, to the second:
///   where seconds are what the widget shows, this needs no entries at all;
/// - ``Entry/pausedRemaining`` while it is paused, and ``Entry/isFinished``.
///
/// A plan never shows a wrong value at any instant. When the display changes more often than
/// `maximumEntries` can list before the budget allows a reload, the listed entries end at the plan's
/// ``horizon`` with an entry whose value is `nil`: from there the widget shows only the system timer
/// (always right), until WidgetKit reloads at ``reload``. Changes made from outside (a pause, a new
/// end from the server) are the app's to tell WidgetKit about
/// (`WidgetCenter.shared.reloadTimelines(ofKind:)`).
public struct WidgetTimelinePlan<Value: Equatable & Sendable>: Equatable, Sendable {
  /// What the widget shows from one date on.
  public struct Entry: Equatable, Sendable {
    /// When the entry starts to be shown.
    public var date: Date
    /// The display's value from ``date`` until the next entry; `nil` past the plan's ``horizon``, where
    /// the widget shows only the system timer.
    public var value: Value?
    /// While the countdown runs: the interval the system counts down by itself (its upper bound is the
    /// end; its lower bound the start of the countdown's total, when it has one); `nil` while paused.
    public var timerInterval: ClosedRange<Date>?
    /// While the countdown is paused: the frozen time left; `nil` while it runs.
    public var pausedRemaining: Duration?
    /// Whether no time is left from ``date`` until the next entry.
    public var isFinished: Bool

    /// An entry with every field given.
    public init(
      date: Date, value: Value?, timerInterval: ClosedRange<Date>?, pausedRemaining: Duration?, isFinished: Bool
    ) {
      self.date = date
      self.value = value
      self.timerInterval = timerInterval
      self.pausedRemaining = pausedRemaining
      self.isFinished = isFinished
    }
  }

  /// When WidgetKit should ask for the next timeline (WidgetKit's `TimelineReloadPolicy`).
  public enum Reload: Equatable, Sendable {
    /// Not by itself: the entries say everything the countdown will do (`.never`).
    case never
    /// Not before this date (`.after(date)`): the plan's horizon, or later if the budget demands.
    case after(Date)
  }

  /// The entries, by date; the first is dated at the instant the plan was made for.
  public var entries: [Entry]
  /// When to ask for the next timeline.
  public var reload: Reload
  /// The date from which the entries no longer know the display's value (the `nil` entry's date);
  /// `nil` when they cover everything the countdown will do by itself.
  public var horizon: Date?

  /// A plan with every field given; ``Countdown/widgetTimeline(of:at:on:reloadsPerDay:maximumEntries:)``
  /// makes them.
  public init(entries: [Entry], reload: Reload, horizon: Date?) {
    self.entries = entries
    self.reload = reload
    self.horizon = horizon
  }

  /// The entry WidgetKit shows at `date`: the last one dated at or before it; `nil` before the first.
  ///
  /// - Complexity: O(log n) in the number of entries.
  public func entry(at date: Date) -> Entry? {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].date <= date { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? entries[low - 1] : nil
  }
}
