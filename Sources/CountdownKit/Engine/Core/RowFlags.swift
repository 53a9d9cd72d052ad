/// The small facts about a row, packed in 32 bits: whether it is live, paused, bound, scheduled, where
/// its completion stands, and which board (if any) owns it.
package struct RowFlags: Equatable, Sendable {
  package var rawValue: UInt32

  package init(rawValue: UInt32 = 0) {
    self.rawValue = rawValue
  }

  /// Where a row's completion stands.
  package enum Completion: UInt32, Sendable {
    /// Time is left; the completion fires when it runs out.
    case armed = 0
    /// No time has been left since a change made by hand; it fires at the next wake-up, unless time is
    /// put back first (so that changes made one after the other at the same instant count as one).
    case pending = 1
    /// Fired for the current run.
    case fired = 2
  }

  private static let live: UInt32 = 1 << 0
  private static let paused: UInt32 = 1 << 1
  private static let bound: UInt32 = 1 << 2
  private static let queued: UInt32 = 1 << 3
  private static let settles: UInt32 = 1 << 4
  private static let pausedOnItsOwn: UInt32 = 1 << 5
  private static let followsDate: UInt32 = 1 << 6
  private static let inGroup: UInt32 = 1 << 7
  private static let completionShift: UInt32 = 8
  private static let completionMask: UInt32 = 0b11 << completionShift
  private static let ownerShift: UInt32 = 16

  private func bit(_ mask: UInt32) -> Bool { rawValue & mask != 0 }

  private mutating func set(_ mask: UInt32, _ on: Bool) {
    if on { rawValue |= mask } else { rawValue &= ~mask }
  }

  /// The row holds a countdown (it is not free).
  package var isLive: Bool {
    get { bit(Self.live) }
    set { set(Self.live, newValue) }
  }

  /// The countdown is paused: its remaining time is frozen.
  package var isPaused: Bool {
    get { bit(Self.paused) }
    set { set(Self.paused, newValue) }
  }

  /// The row has a binding: a subscriber, a stream or a completion callback.
  package var hasBinding: Bool {
    get { bit(Self.bound) }
    set { set(Self.bound, newValue) }
  }

  /// A valid schedule item for the row is queued.
  package var isQueued: Bool {
    get { bit(Self.queued) }
    set { set(Self.queued, newValue) }
  }

  /// The row goes away once it has finished, its completion was delivered and its display will not
  /// change again (a stream's countdown, or one whose handles were all dropped).
  package var releasesWhenSettled: Bool {
    get { bit(Self.settles) }
    set { set(Self.settles, newValue) }
  }

  /// A board row that was paused on its own (it stays paused when its board resumes).
  package var isPausedOnItsOwn: Bool {
    get { bit(Self.pausedOnItsOwn) }
    set { set(Self.pausedOnItsOwn, newValue) }
  }

  /// The end came from a wall-clock date, re-converted when the wall clock changes.
  package var followsDate: Bool {
    get { bit(Self.followsDate) }
    set { set(Self.followsDate, newValue) }
  }

  /// The row is in a phase group of its board's live values (see ``LiveColumns``): its head's `binding`
  /// field is its position there, and its group serves it (no schedule item).
  package var isInGroup: Bool {
    get { bit(Self.inGroup) }
    set { set(Self.inGroup, newValue) }
  }

  package var completion: Completion {
    get { Completion(rawValue: (rawValue & Self.completionMask) >> Self.completionShift) ?? .armed }
    set { rawValue = (rawValue & ~Self.completionMask) | newValue.rawValue << Self.completionShift }
  }

  /// The board that owns the row (its index among the engine's boards, plus one), or 0.
  package var owner: UInt16 {
    get { UInt16(truncatingIfNeeded: rawValue >> Self.ownerShift) }
    set { rawValue = (rawValue & 0xFFFF) | UInt32(newValue) << Self.ownerShift }
  }

  /// Live, bound, running and with its completion armed: a row the serving loop's fast path may take.
  package var isBoundAndRunning: Bool {
    rawValue & (Self.live | Self.paused | Self.bound | Self.completionMask) == Self.live | Self.bound
  }

  /// These flags with ``isLive`` set as given.
  package func with(isLive: Bool) -> RowFlags {
    var flags = self
    flags.isLive = isLive
    return flags
  }
}
