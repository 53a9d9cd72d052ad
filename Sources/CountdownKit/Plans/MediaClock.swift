/// Reads the clock a host animates on, as `MediaTime`: on Apple platforms Core Animation's
/// `CACurrentMediaTime()`.
///
/// The engine counts on `ContinuousClock`, which goes on while the device sleeps; Core Animation's clock
/// stops. ``RingAnimationModel`` reads both to carry its plans onto the host's clock, and reads them
/// again to notice a sleep (the two have drifted apart) and carry its plan across afresh. Give it the
/// host's clock; tests give it a manual one (CountdownTesting's `MediaClock.manual(_:)`).
///
/// ```swift
/// let media = MediaClock(seconds: CACurrentMediaTime)
/// ```
public struct MediaClock: Sendable {
  private let read: @Sendable () -> MediaTime

  /// A clock read in seconds since its origin, e.g. `MediaClock(seconds: CACurrentMediaTime)`.
  public init(seconds: @escaping @Sendable () -> Double) {
    read = { MediaTime(seconds: seconds()) }
  }

  /// A clock read as instants, exactly (CountdownTesting's manual clock).
  package init(instants now: @escaping @Sendable () -> MediaTime) {
    read = now
  }

  /// The current instant of the host's clock.
  public var now: MediaTime { read() }
}
