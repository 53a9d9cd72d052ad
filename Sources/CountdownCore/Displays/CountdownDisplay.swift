/// Turns a remaining time into what a view shows, and says when that changes next.
///
/// This contract is what lets the engine wake only when something visible changes: it schedules
/// each countdown at ``nextChange(after:)`` instead of ticking.
///
/// Conforming types must satisfy, for every remaining time `r` where `n = nextChange(after: r)`:
/// - `n < r`, and `value(remaining:)` is the same for every remaining time in `n<..r` (the half-open
///   range above `n` up to and including `r`),
/// - `value(remaining: n) != value(remaining: r)`,
/// - `nextChange(after: r) == nil` only if the value is the same for every remaining time below `r`.
///
/// Remaining time decreases as time passes and goes negative after the end (overtime), so "next"
/// means a *smaller* remaining time.
public protocol CountdownDisplay: Sendable {
  /// What the display shows, e.g. whole seconds or a colour.
  associatedtype Value: Equatable & Sendable

  /// The value shown when `remaining` is left (negative: overtime).
  func value(remaining: Duration) -> Value

  /// The largest remaining time below `remaining` at which ``value(remaining:)`` differs from its
  /// value at `remaining`, or `nil` if it never changes again.
  func nextChange(after remaining: Duration) -> Duration?

  /// The shortest time between two changes in normal running, if the display has a natural period
  /// (one second for ``RoundedDisplay/seconds``); the engine derives its default lateness tolerance
  /// from it. `nil` (the default) when there is no such period.
  var period: Duration? { get }
}

extension CountdownDisplay {
  /// No natural period.
  public var period: Duration? { nil }
}
