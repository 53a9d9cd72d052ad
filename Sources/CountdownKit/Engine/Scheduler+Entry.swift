import Foundation

// What the scheduler keeps for each countdown.

extension Scheduler {
  package struct Entry {
    // The fields are in this order so that they pack with little padding (144 bytes in all).
    var renderer: Renderer?
    /// What to deliver when the countdown reaches zero.
    var onFinish: FinishWork?
    var countdown: Countdown<Instant>
    /// For stream subscriptions: remove the entry once it is finished and its display never changes again.
    var removesWhenSettled: Bool
    /// Whether a valid item for this entry is queued.
    var isQueued = false
    /// Whether the entry is a countdown (`false`: its place is vacant).
    var isLive = true
    /// The index of the tolerance class (the lateness allowed) of this entry's due instants.
    var toleranceClass: UInt32
    /// Where the completion stands for the current run (re-armed when the end moves into the future).
    var completion = Completion.armed
    /// The wall-clock date the end came from, if it came from one: re-converted when the clock changes.
    var target: Date?

    /// What a vacant place holds.
    static var vacant: Entry {
      Entry(
        renderer: nil, onFinish: nil, countdown: Countdown(end: EngineTick(offset: .zero)), removesWhenSettled: false,
        isLive: false, toleranceClass: 0, target: nil)
    }

    /// Before a change by hand: a countdown whose time ran out while the driver had not woken yet
    /// reached zero at its end, whatever the change then does (unless it puts time back).
    mutating func noteOverdue(at now: Instant) {
      guard case .armed = completion, countdown.remaining(at: now) <= .zero else { return }
      completion = .pending(since: countdown.end ?? now)
    }

    /// Renders (if there is a renderer) and moves the completion on: fires it after the render, so
    /// that a subscriber shows zero before it is told.
    ///
    /// - Returns: the next instant the entry is due at (`nil`: never), and whether it is settled and
    ///   to be removed (a stream's entry that finished and whose display will not change again).
    mutating func step(
      at now: Instant, as processing: Processing, tolerance: Duration, into deliveries: inout [Delivery]
    ) -> (
      due: Instant?, settled: Bool
    ) {
      var due: Instant?
      if let renderer {
        let (delivery, nextChange) = renderer.render(countdown, at: now, force: processing == .adding)
        if let delivery { deliveries.append(delivery) }
        if let nextChange, case .running(let end) = countdown.state {
          // A display that breaks its contract (a next change not below the current remaining time)
          // is looked at again a tolerance later instead of being served over and over at `now`.
          let change = end.advanced(by: .zero - nextChange)
          due = change > now ? change : now.advanced(by: tolerance)
        }
      }
      switch (countdown.remaining(at: now) > .zero, completion, processing) {
      case (true, _, _): completion = .armed
      case (false, .fired, _), (false, .pending, .changing): break
      case (false, .armed, .changing): completion = .pending(since: now)
      case (false, .armed, _), (false, .pending, _):
        completion = .fired
        if let onFinish { deliveries += onFinish() }
      }
      // Due at its end, or, when over but not yet reported, since the moment it was found over.
      let finish: Instant? =
        switch completion {
        case .armed: countdown.end
        case .pending(let since): since
        case .fired: nil
        }
      if let finish { due = due.map { Swift.min($0, finish) } ?? finish }
      var settled = false
      if due == nil, removesWhenSettled, case .fired = completion, !countdown.isPaused { settled = true }
      return (due, settled)
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
