/// A display whose unit depends on how much time is left: coarse far from the end, fine near it.
///
/// The default, ``CountdownDisplay/adaptive``, shows whole minutes while more than an hour is left
/// and whole seconds below, so a countdown to next week wakes the engine once a minute, not once a
/// second. Values are rounded up and stay at zero once finished.
///
/// ```swift
/// // Hours above a day, minutes above an hour, seconds below.
/// let display = AdaptiveDisplay([
///   .init(above: .seconds(86_400), unit: .seconds(3_600)),
///   .init(above: .seconds(3_600), unit: .seconds(60)),
/// ], finest: .seconds(1))
/// ```
public struct AdaptiveDisplay: CountdownDisplay, Hashable {
  /// One step of the schedule: while more than ``above`` is left, round up to ``unit``.
  public struct Tier: Sendable, Hashable {
    /// The remaining time above which this tier applies (exclusive).
    public var above: Duration
    /// The unit values are rounded up to in this tier.
    public var unit: Duration

    /// A tier that rounds to `unit` while more than `above` is left.
    public init(above: Duration, unit: Duration) {
      self.above = above
      self.unit = unit
    }
  }

  /// The tiers, largest threshold first.
  public let tiers: [Tier]
  /// The unit used at or below the smallest threshold.
  public let finest: Duration

  /// A display with the given tiers (in any order) and the unit used below all of them.
  ///
  /// - Precondition: every unit is positive and every threshold is zero or more.
  public init(_ tiers: [Tier], finest: Duration) {
    precondition(finest > .zero, "AdaptiveDisplay needs a positive finest unit, got \(finest)")
    for tier in tiers {
      precondition(tier.unit > .zero, "AdaptiveDisplay tier units must be positive, got \(tier.unit)")
      precondition(tier.above >= .zero, "AdaptiveDisplay thresholds must not be negative, got \(tier.above)")
    }
    self.tiers = tiers.sorted { $0.above > $1.above }
    self.finest = finest
  }

  /// The remaining time rounded up to the unit of its tier; zero once finished.
  public func value(remaining: Duration) -> Duration {
    guard remaining > .zero else { return .zero }
    return remaining.rounded(to: tier(for: remaining).unit, .up)
  }

  /// The next remaining time at which the value changes, crossing tiers where needed.
  public func nextChange(after remaining: Duration) -> Duration? {
    guard remaining > .zero else { return nil }
    let current = value(remaining: remaining)
    var position = remaining
    while true {
      let (unit, lowerBound) = tier(for: position)
      // The last multiple of `unit` below `position`, counted rather than rounded up and stepped back:
      // near `Duration.max` rounding up saturates, and one unit below the saturated value is wrong.
      let candidate = Duration.multiple(of: unit, count: position.quotient(dividingBy: unit, rounding: .up) - 1)
      if candidate > lowerBound || lowerBound <= .zero { return Swift.max(candidate, .zero) }
      // Every remaining time in lowerBound<..position rounds to `current`; the next tier starts at
      // lowerBound itself.
      if value(remaining: lowerBound) != current { return lowerBound }
      position = lowerBound
    }
  }

  /// The finest unit.
  public var period: Duration? { finest }

  private func tier(for remaining: Duration) -> (unit: Duration, lowerBound: Duration) {
    for tier in tiers where remaining > tier.above {
      return (tier.unit, tier.above)
    }
    return (finest, .zero)
  }
}

extension CountdownDisplay where Self == AdaptiveDisplay {
  /// Whole minutes while more than an hour is left, whole seconds below.
  public static var adaptive: AdaptiveDisplay {
    AdaptiveDisplay([.init(above: .seconds(3_600), unit: .seconds(60))], finest: .seconds(1))
  }

  /// The marketplace widget's reading: half hours above an hour ("1.5 hours"), whole minutes below
  /// ("45 min"); pairs with the `.coarse` format preset.
  public static var coarse: AdaptiveDisplay {
    AdaptiveDisplay([.init(above: .seconds(3_600), unit: .seconds(1_800))], finest: .seconds(60))
  }

  /// A display with your own schedule of units.
  public static func adaptive(_ tiers: [AdaptiveDisplay.Tier], finest: Duration) -> AdaptiveDisplay {
    AdaptiveDisplay(tiers, finest: finest)
  }
}
