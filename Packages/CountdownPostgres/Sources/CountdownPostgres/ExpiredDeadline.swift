public import Foundation

/// A row a worker claimed: what its follow-up needs to know.
public struct ExpiredDeadline: Sendable, Hashable {
  /// The row as the claim left it (`expiredAt`, `leaseUntil` and `expiryAttempts` set).
  public var row: DeadlineRow
  /// The row's id.
  public var id: Int64 { row.id }
  /// When the row expired, on the server's clock (set by the first claim, kept by retries).
  public var expiredAt: Date
  /// The deadline it expired at.
  public var endsAt: Date
  /// 1 for the claim that expired the row; more when the follow-up is retried after a worker died or failed.
  public var attempt: Int
  /// `expired_at` in microseconds since 1970, exactly as stored: identifies this expiry in later updates.
  let expiredMicroseconds: Int64
  /// The attempt's row in the table's attempt log.
  let attemptRecord: Int64

  /// How late the row expired: `expiredAt - endsAt` (never negative: the claim checks the deadline).
  public var lateness: Duration { .milliseconds(Int64((expiredAt.timeIntervalSince(endsAt) * 1_000).rounded())) }
}

/// What an ``DeadlineExpiryWorker`` reports as it works.
public enum ExpiryEvent: Sendable {
  /// The worker holds the table's pending rows (after its first load, or after a reconnect).
  case ready(pending: Int)
  /// This worker claimed a row: it expired it (attempt 1) or took over its follow-up (attempt > 1).
  case claimed(ExpiredDeadline)
  /// The follow-up finished and was recorded.
  case followedUp(ExpiredDeadline)
  /// The follow-up threw or timed out; the row is retried after its lease (by any worker), which grows
  /// with each attempt.
  case followUpFailed(ExpiredDeadline, String)
  /// The follow-up failed on the last attempt allowed: the row is discarded (`discarded_at`) until an
  /// operator retries it (``PostgresDeadlines/retryDiscarded(_:)``).
  case discarded(ExpiredDeadline, String)
  /// This worker stopped treating the follow-up as its own, and says why: its lease could not be
  /// extended and would have ended (the follow-up's task was cancelled before it did), the row was moved,
  /// deleted or taken over, or the worker drains. Whoever claims the row next runs it again.
  case followUpAbandoned(ExpiredDeadline, String)
  /// The sweep found rows that need a worker which no notification had announced (written without the
  /// table's triggers, say): they are claimed now.
  case found([Int64])
  /// ``DeadlineExpiryWorker/drain()`` was called: no more claims; `running` follow-ups may finish.
  case draining(running: Int)
  /// A connection broke or went silent; the worker reconnects by itself. Claims in between are retried.
  case interrupted(PostgresDeadlineError)
  /// The worker measured the server's clock (at start, on every new claims connection, and every
  /// ``DeadlineExpiryWorker/clockInterval``): server time minus local time, within `uncertainty`.
  case clockSynchronized(offset: Duration, uncertainty: Duration)
}
