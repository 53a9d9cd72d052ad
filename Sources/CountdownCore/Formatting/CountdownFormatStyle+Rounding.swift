// The exact value each preset shows.
//
// Every preset rounds to the unit it shows before it formats, on the exact attosecond count, so
// Foundation only ever sees whole units and its own rounding never comes into play.

extension CountdownFormatStyle.Rounding {
  /// The standard library's rounding rule for this direction.
  var rule: FloatingPointRoundingRule {
    switch self {
    case .up: .up
    case .down: .down
    }
  }
}

extension CountdownFormatStyle {
  /// The value the text for `value` shows: clamped to ``maximumMagnitude``, then rounded in the
  /// style's direction to the smallest unit the preset shows for it.
  ///
  /// Formatting the result gives the same text as formatting `value`, and rounding the result
  /// again returns it unchanged, so a display can use this as its value and a label can format it.
  package func displayedValue(of value: Duration) -> Duration {
    let clamped = Self.clampedMagnitude(value)
    switch preset {
    case .digital:
      return clamped.rounded(to: .seconds(1), rounding.rule)
    case .units, .spoken:
      return roundedToStableGranularity(clamped)
    case .coarse:
      let minutes = clamped.rounded(to: .seconds(60), rounding.rule)
      if minutes.attosecondMagnitude <= Duration.seconds(3_600).attosecondMagnitude { return minutes }
      return clamped.rounded(to: .seconds(1_800), rounding.rule)
    }
  }

  /// `value` rounded to the granularity of the band it lands in.
  ///
  /// Rounding can move a value into the next band (59 min 59.5 s rounds up to one hour). Band
  /// limits are whole multiples of every finer granularity, so a second rounding at the new
  /// band's granularity changes nothing; the loop stops after at most two passes.
  private func roundedToStableGranularity(_ value: Duration) -> Duration {
    var band = UnitsBand(value)
    var rounded = value.rounded(to: band.granularity, rounding.rule)
    while UnitsBand(rounded) != band {
      band = UnitsBand(rounded)
      rounded = rounded.rounded(to: band.granularity, rounding.rule)
    }
    return rounded
  }

  /// `value` with its magnitude limited to ``maximumMagnitude``.
  static func clampedMagnitude(_ value: Duration) -> Duration {
    if value > maximumMagnitude { return maximumMagnitude }
    if value < .zero - maximumMagnitude { return .zero - maximumMagnitude }
    return value
  }
}
