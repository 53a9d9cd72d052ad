public import Foundation

extension PostgresDeadlineFollower {
  /// What a follower is doing: what a board shows in its status line, and an operator watches.
  public enum State: Sendable, Hashable {
    /// Connecting and loading the table for the first time.
    case starting
    /// Connected and up to date since this date (the end of the last load or catch-up).
    case following(since: Date)
    /// The connection was lost (or went silent) at `since`, for `reason`; `attempts` connections have
    /// failed since. The rows delivered so far are as they were then.
    case reconnecting(since: Date, reason: PostgresDeadlineError, attempts: Int)
    /// ``PostgresDeadlineFollower/run(reading:_:)`` returned or threw.
    case stopped
  }
}
