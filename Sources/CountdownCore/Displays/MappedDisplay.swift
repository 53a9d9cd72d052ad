/// A display whose values are another display's values transformed, e.g. into text or a colour.
///
/// When the transform maps neighbouring values to the same result, ``nextChange(after:)`` skips
/// ahead to the next change of the *transformed* value, looking at no more than
/// ``maximumSkippedChanges`` base changes; past that it reports the base display's change (the engine
/// then wakes once without a visible change, which is harmless) so a transform that makes every value
/// equal can never make it loop for long.
public struct MappedDisplay<Base: CountdownDisplay, Value: Equatable & Sendable>: CountdownDisplay {
  /// How many base changes ``nextChange(after:)`` looks past before giving up.
  public static var maximumSkippedChanges: Int { 1_000 }

  /// The display whose values are transformed.
  public let base: Base
  /// The transform.
  public let transform: @Sendable (Base.Value) -> Value

  /// A display showing `transform` of `base`'s value.
  public init(_ base: Base, transform: @escaping @Sendable (Base.Value) -> Value) {
    self.base = base
    self.transform = transform
  }

  /// The transformed value.
  public func value(remaining: Duration) -> Value {
    transform(base.value(remaining: remaining))
  }

  /// The next base change at which the transformed value differs.
  public func nextChange(after remaining: Duration) -> Duration? {
    let current = value(remaining: remaining)
    var position = remaining
    for _ in 0..<Self.maximumSkippedChanges {
      guard let next = base.nextChange(after: position) else { return nil }
      if value(remaining: next) != current { return next }
      position = next
    }
    return position
  }

  /// The base display's period.
  public var period: Duration? { base.period }
}

extension CountdownDisplay {
  /// This display with its values transformed.
  public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> MappedDisplay<Self, NewValue> {
    MappedDisplay(self, transform: transform)
  }
}
