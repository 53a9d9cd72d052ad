import Foundation

// Each preset formats a value that `displayedValue(of:)` has already rounded to whole units of
// what it shows, so every Foundation style below prints its input exactly.

extension CountdownFormatStyle {
  /// `h:mm:ss` from one hour up, `mm:ss` below.
  func formatDigital(_ value: Duration) -> String {
    let pattern: Duration.TimeFormatStyle.Pattern =
      value.attosecondMagnitude >= Duration.seconds(3_600).attosecondMagnitude
      ? .hourMinuteSecond
      : .minuteSecond(padMinuteToLength: 2)
    return value.formatted(Duration.TimeFormatStyle(pattern: pattern).locale(locale))
  }

  /// The two units of `value`'s band in `width`, zero units left out.
  func formatUnits(_ value: Duration, width: Duration.UnitsFormatStyle.UnitWidth) -> String {
    let style = Duration.UnitsFormatStyle(allowedUnits: UnitsBand(value).units, width: width)
    return value.formatted(style.locale(locale))
  }

  /// Abbreviated minutes up to one hour, wide hours with at most one fractional digit above.
  func formatCoarse(_ value: Duration) -> String {
    if value.attosecondMagnitude <= Duration.seconds(3_600).attosecondMagnitude {
      return value.formatted(Duration.UnitsFormatStyle(allowedUnits: [.minutes], width: .abbreviated).locale(locale))
    }
    let hours = Duration.UnitsFormatStyle(
      allowedUnits: [.hours], width: .wide, fractionalPart: .init(lengthLimits: 0...1))
    return value.formatted(hours.locale(locale))
  }

  /// Wide units inside the language's "left" or "over" phrase, or bare when it has none.
  func formatSpoken(_ value: Duration) -> String {
    guard let phrase = SpokenPhrase(locale: locale) else {
      return formatUnits(value, width: .wide)
    }
    if value < .zero {
      return phrase.overtime.applied(to: formatUnits(.zero - value, width: .wide))
    }
    return phrase.remaining.applied(to: formatUnits(value, width: .wide))
  }
}

extension CountdownFormatStyle {
  /// What is said once when a countdown finishes, in the style's locale: "Time is up", "Время вышло";
  /// zero in wide units ("0 seconds") in a language without a spoken phrase.
  func finishedPhrase() -> String {
    SpokenPhrase(locale: locale)?.finished ?? formatUnits(.zero, width: .wide)
  }
}
