import CountdownKit
import Foundation

/// The status line's counts over every window: how many have at most 30 minutes left, and how many of
/// them at most 5 (finished ones not counted), as ``OrderRow/phases`` shows them on screen.
///
/// A running window's phase depends only on its end and the time, so the counts are ranks among the
/// running windows' ends (``SortedEnds``: each distinct end once, with how many windows end then).
/// Paused windows keep their phase and are counted as they come and go. A change costs O(log n) per
/// window changed, a count O(log n + n / 1,024); nothing is rescanned when a row changes, no value is
/// computed for a row that is not drawn, and the first load needs no buffer of its own.
///
/// The counts are unknown until the first load has read every row (``endLoad()``).
struct WindowCounts: Sendable {
  private var running = SortedEnds()
  /// Whether the first load ended: the counts are known.
  private(set) var isComplete = false
  /// Paused windows in the phases counted (they keep the phase they were paused in).
  private var pausedHurry = 0
  private var pausedLastMinutes = 0

  /// Counts a window.
  mutating func add(_ deadline: Deadline) {
    switch deadline {
    case .until(let end): running.insert(end.timeIntervalSinceReferenceDate)
    case .after(let left): running.insert(Self.end(after: left))
    case .paused(let remaining): countPaused(remaining, by: 1)
    }
  }

  /// No longer counts a window, as ``add(_:)`` counted it (as the board gives it back: a running window
  /// by its date).
  mutating func remove(_ deadline: Deadline) {
    switch deadline {
    case .until(let end): running.remove(end.timeIntervalSinceReferenceDate)
    case .after(let left): running.remove(Self.end(after: left))
    case .paused(let remaining): countPaused(remaining, by: -1)
    }
  }

  /// The date a window running for `left` from now ends at, in seconds since 2001. The command's
  /// sources send dates; a duration is counted from now as the board counts it.
  private static func end(after left: Duration) -> Double {
    Date().timeIntervalSinceReferenceDate + Double(left.components.seconds) + Double(left.components.attoseconds)
      * 1e-18
  }

  /// The first load ended: every window is counted.
  mutating func endLoad() {
    isComplete = true
  }

  /// Counts exactly `deadlines` (a reload): sorted at once, complete.
  mutating func rebuild(_ deadlines: [Deadline]) {
    self = WindowCounts()
    var ends: [Double] = []
    for deadline in deadlines {
      switch deadline {
      case .until(let end): ends.append(end.timeIntervalSinceReferenceDate)
      case .after(let left): ends.append(Self.end(after: left))
      case .paused(let remaining): countPaused(remaining, by: 1)
      }
    }
    running = SortedEnds(ends)
    isComplete = true
  }

  /// How many windows have at most 30 minutes left at `now`, and how many at most 5; nil until known.
  func counts(at now: Date) -> (underHalfHour: Int, underFiveMinutes: Int)? {
    guard isComplete else { return nil }
    let now = now.timeIntervalSinceReferenceDate
    let over = running.count(atMost: now)
    let hurry = running.count(atMost: now + Self.hurry) - over
    let lastMinutes = running.count(atMost: now + Self.lastMinutes) - over
    return (hurry + pausedHurry + pausedLastMinutes, lastMinutes + pausedLastMinutes)
  }

  /// The first moment after `now` at which a running window enters a phase, so the counts change;
  /// nil if none will (or until the counts are known).
  func nextChange(after now: Date) -> Date? {
    guard isComplete else { return nil }
    let now = now.timeIntervalSinceReferenceDate
    let moments = [
      running.first(after: now + Self.hurry).map { $0 - Self.hurry },
      running.first(after: now + Self.lastMinutes).map { $0 - Self.lastMinutes },
      running.first(after: now),
    ]
    return moments.compactMap { $0 }.min().map(Date.init(timeIntervalSinceReferenceDate:))
  }

  /// The phases' thresholds in seconds left.
  private static let hurry = OrderRow.hurryStarts / .seconds(1)
  private static let lastMinutes = OrderRow.lastMinutesStart / .seconds(1)

  private mutating func countPaused(_ remaining: Duration, by step: Int) {
    switch OrderRow.phases.value(remaining: remaining) {
    case .hurry: pausedHurry += step
    case .lastMinute: pausedLastMinutes += step
    case .plenty, .over: break
    }
  }
}
