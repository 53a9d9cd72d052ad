public import Foundation

/// A source of wall-clock dates: what the user's device says the time is.
///
/// The engine measures time on a monotonic clock and reads the wall clock only to convert `Date`
/// targets (from a database or a server) into monotonic instants, and to notice when the user or the
/// network moved the wall clock.
public protocol WallClock: Sendable {
  /// The current wall-clock date.
  var currentDate: Date { get }
}

/// The system's wall clock (`Date()`).
public struct SystemWallClock: WallClock {
  /// The system wall clock.
  public init() {}

  /// `Date()`.
  public var currentDate: Date { Date() }
}
