/// What happens where a segment of a ``RingAnimationPlan`` ends; several can happen at once.
public struct RingAnimationEvents: OptionSet, Hashable, Sendable {
  /// The phase display's value changes (to the next segment's phase).
  public static let phaseChange = RingAnimationEvents(rawValue: 1 << 0)
  /// The remaining time reaches zero: the countdown finishes and the ring is empty.
  public static let finish = RingAnimationEvents(rawValue: 1 << 1)
  /// The remaining time comes down to the total: a countdown given more than its total (extended past
  /// it) starts to empty a ring that was full until then.
  public static let ringStartsEmptying = RingAnimationEvents(rawValue: 1 << 2)

  /// The events' bits.
  public let rawValue: UInt8

  /// Events from their bits.
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }
}
