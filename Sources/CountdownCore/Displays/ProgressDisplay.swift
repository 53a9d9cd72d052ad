/// A display of the fraction of a total still left, in a fixed number of steps: for rings and bars.
///
/// A ring only needs a new frame when its stroke end moves by a visible amount, so give it as many
/// steps as the ring has pixels along its circumference: a 48-pt ring drawn at 3× has about 450
/// (`RingGeometry.visibleSteps(diameter:lineWidth:scale:)` computes it), which for an 8-second
/// turn is one update every 18 ms, and for a two-hour window one every 16 s — never more often than
/// the eye can see.
///
/// The value is the fraction left, `k / steps` for a whole `k`, rounded up: it reads 1 at the start
/// and 0 only at the end.
public struct ProgressDisplay: CountdownDisplay, Hashable {
  /// The number of steps between a full and an empty ring.
  public let steps: Int
  /// The time that a full ring stands for.
  public let total: Duration

  /// A progress display with `steps` steps over `total`.
  ///
  /// - Precondition: `steps` is in 1…1,000,000 and `total` is positive.
  public init(steps: Int, total: Duration) {
    precondition((1...1_000_000).contains(steps), "ProgressDisplay needs 1...1_000_000 steps, got \(steps)")
    precondition(total > .zero, "ProgressDisplay needs a positive total, got \(total)")
    self.steps = steps
    self.total = total
  }

  /// The fraction of the total left, rounded up to a whole step, in 0…1.
  public func value(remaining: Duration) -> Double {
    Double(step(remaining: remaining)) / Double(steps)
  }

  /// The largest remaining time at which the ring shows one step less.
  public func nextChange(after remaining: Duration) -> Duration? {
    let current = step(remaining: remaining)
    guard current > 0 else { return nil }
    // The largest r with ceil(r * steps / total) == current - 1 is floor((current - 1) * total / steps).
    let scaled = total.attosecondCount.multipliedFullWidth(by: Int128(current - 1))
    let (quotient, _) = Int128(steps).dividingFullWidth(scaled)
    return Duration(attosecondCount: quotient)
  }

  /// The total divided by the number of steps.
  public var period: Duration? { total / steps }

  private func step(remaining: Duration) -> Int {
    guard remaining > .zero else { return 0 }
    guard remaining < total else { return steps }
    // ceil(remaining * steps / total), exact: remaining < total, so the quotient is below `steps`.
    let scaled = remaining.attosecondCount.multipliedFullWidth(by: Int128(steps))
    let (quotient, remainder) = total.attosecondCount.dividingFullWidth(scaled)
    return Int(quotient) + (remainder > 0 ? 1 : 0)
  }
}

extension CountdownDisplay where Self == ProgressDisplay {
  /// The fraction of `total` left in `steps` steps, for a ring or a bar.
  public static func progress(steps: Int, total: Duration) -> ProgressDisplay {
    ProgressDisplay(steps: steps, total: total)
  }
}
