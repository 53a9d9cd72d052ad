/// An instant of the clock a host animates on: Core Animation's media time (`CACurrentMediaTime()`),
/// which, unlike the engine's `ContinuousClock`, stops while the device sleeps.
///
/// Animations are timed on this clock: a `CAAnimation`'s `beginTime`, a `CADisplayLink`'s
/// `targetTimestamp`, SwiftUI's animations. A ``RingAnimationPlan`` made on the engine's clock is
/// carried onto it with ``RingAnimationPlan/converted(_:)``; CountdownKit's `RingAnimationModel`
/// does that and carries it again after the device sleeps, when the two clocks have drifted apart.
///
/// ```swift
/// let begin = MediaTime(seconds: 1_234.5)
/// begin.advanced(by: .milliseconds(250)).seconds   // 1234.75
/// ```
public struct MediaTime: InstantProtocol, CustomStringConvertible {
  /// The time since the clock's origin (for Core Animation: the time the device has been awake since
  /// it booted).
  public var offset: Duration

  /// The instant `offset` after the clock's origin.
  public init(offset: Duration) {
    self.offset = offset
  }

  /// The instant `seconds` after the clock's origin: `CACurrentMediaTime()`, a display link's
  /// `timestamp`. A value that is not finite counts as 0; one beyond ±10¹⁵ s (30 million years) is held
  /// there.
  public init(seconds: Double) {
    offset = seconds.isFinite ? .seconds(min(max(seconds, -1e15), 1e15)) : .zero
  }

  /// The seconds since the clock's origin, for Core Animation (`CFTimeInterval`).
  public var seconds: Double { offset.timeInterval }

  /// The instant `duration` later.
  public func advanced(by duration: Duration) -> MediaTime {
    MediaTime(offset: offset + duration)
  }

  /// The time from this instant to `other`.
  public func duration(to other: MediaTime) -> Duration {
    other.offset - offset
  }

  /// The instant `rhs` after `lhs`.
  public static func + (lhs: MediaTime, rhs: Duration) -> MediaTime {
    lhs.advanced(by: rhs)
  }

  /// The instant `rhs` before `lhs`.
  public static func - (lhs: MediaTime, rhs: Duration) -> MediaTime {
    lhs.advanced(by: .zero - rhs)
  }

  /// Whether `lhs` is earlier.
  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
    lhs.offset < rhs.offset
  }

  /// The seconds since the origin, e.g. "media 1234.5 s".
  public var description: String { "media \(seconds) s" }
}
