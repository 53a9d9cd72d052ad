import Foundation

// What the scheduler keeps for each countdown.

extension Scheduler {
  package struct Entry {
    var countdown: Countdown<Instant>
    /// The wall-clock date the end came from, if it came from one: re-converted when the clock changes.
    var target: Date?
    var renderer: (any Renderer)?
    /// What to deliver when the countdown reaches zero.
    var onFinish: [Delivery]
    /// Where the completion stands for the current run (re-armed when the end moves into the future).
    var completion = Completion.armed
    /// For stream subscriptions: remove the entry once it is finished and its display never changes again.
    var removesWhenSettled: Bool
    /// The lateness allowed for this entry's due instants.
    var tolerance: Duration
    /// Matches the stamp of the entry's one valid queued item.
    var stamp: UInt32 = 0
    /// Whether a valid item for this entry is queued.
    var isQueued = false

    /// Before a change by hand: a countdown whose time ran out while the driver had not woken yet
    /// reached zero at its end, whatever the change then does (unless it puts time back).
    mutating func noteOverdue(at now: Instant) {
      guard case .armed = completion, countdown.remaining(at: now) <= .zero else { return }
      completion = .pending(since: countdown.end ?? now)
    }
  }

  /// Where an entry's completion stands.
  package enum Completion {
    /// Time is left; the completion fires when it runs out.
    case armed
    /// No time has been left since `since` (a change by hand put it there); the completion fires at
    /// the next wake-up, unless time is put back first.
    case pending(since: Instant)
    /// Fired for the current run.
    case fired
  }
}
