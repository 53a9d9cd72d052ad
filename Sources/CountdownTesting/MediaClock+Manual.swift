public import CountdownKit

extension MediaClock {
  /// The media time of `clock`: it moves with `advance(by:)` and stands still through
  /// `advanceAsleep(by:)`, as Core Animation's clock does through a device's sleep.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let model = RingAnimationModel(
  ///   engine: .manuallyDriven(by: clock), countdown: turn, phases: phases, ring: ring, mediaClock: .manual(clock))
  /// clock.advanceAsleep(by: .seconds(30))   // the device sleeps: media time stops
  /// ```
  public static func manual(_ clock: ManualClock) -> MediaClock {
    MediaClock(instants: { clock.mediaTime })
  }
}
