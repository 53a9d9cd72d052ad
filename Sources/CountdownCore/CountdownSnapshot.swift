/// What a view shows for a countdown at one instant: the display value and the facts around it.
///
/// The engine delivers a snapshot whenever the display value changes; `remaining` and `progress`
/// are exact for ``instant``, so a view that animates between values can interpolate from there.
public struct CountdownSnapshot<Value: Equatable & Sendable, Instant: InstantProtocol>: Equatable, Sendable
where Instant.Duration == Duration {
  /// The display's value for the remaining time, e.g. whole seconds rounded up.
  public var value: Value
  /// The exact time left at ``instant``; negative in overtime.
  public var remaining: Duration
  /// The fraction of the total left at ``instant`` (0…1), or `nil` when the countdown has no total.
  public var progress: Double?
  /// Whether the countdown is paused.
  public var isPaused: Bool
  /// Whether no time is left (remaining ≤ 0).
  public var isFinished: Bool
  /// The instant this snapshot is for.
  public var instant: Instant

  /// A snapshot with every field given.
  @inlinable
  public init(value: Value, remaining: Duration, progress: Double?, isPaused: Bool, isFinished: Bool, instant: Instant)
  {
    self.value = value
    self.remaining = remaining
    self.progress = progress
    self.isPaused = isPaused
    self.isFinished = isFinished
    self.instant = instant
  }
}
