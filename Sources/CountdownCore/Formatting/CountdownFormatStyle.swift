public import Foundation

/// Formats the remaining time of a countdown as text, in one of a few presets built on Foundation's
/// `Duration.TimeFormatStyle` and `Duration.UnitsFormatStyle`.
///
/// ```swift
/// remaining.formatted(.countdown(.digital))            // "1:02:05", "05:00", "00:07"
/// remaining.formatted(.countdown(.units))              // "1 day, 2 hr", "1 hr, 2 min", "2 min, 5 sec"
/// remaining.formatted(.countdown(.coarse))             // "2 hours", "1.5 hours", "45 min"
/// remaining.formatted(.countdown(.spoken))             // "1 hour, 2 minutes left"
/// elapsed.formatted(.countdown(.digital, rounding: .down))
/// ```
///
/// Words, plural forms, digits, separators and the minus sign all come from Foundation (CLDR data
/// through ICU) for the style's locale; nothing here knows a plural rule. Only the short phrase that
/// turns a duration into "… left" in the ``Preset/spoken`` preset is a table of its own.
///
/// Every preset first clamps the magnitude to ``maximumMagnitude``, then rounds the value to the unit
/// it shows (see ``Rounding``), then formats the rounded value exactly. Formatting a value that is
/// already rounded that way gives the same text, so a display that rounds like the preset and a
/// label that formats its value always agree.
///
/// Negative durations (overtime) read as their magnitude with the locale's minus sign in front
/// ("-00:05", "-1 hr, 2 min", "-1.5 hours"); ``Preset/spoken`` says "5 seconds over" instead.
public struct CountdownFormatStyle: FormatStyle, Sendable, Hashable {
  /// The shape of the text.
  public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
    /// A clock: "1:02:05" at an hour or more, "05:00" and "00:07" below an hour.
    ///
    /// Hours never wrap at 24 ("26:00:00") and are grouped like any other number once they
    /// reach a thousand ("1,234:00:00" in English). Shows whole seconds.
    case digital
    /// Abbreviated units, at most two, the largest one day: "1 day, 2 hr", "1 hr, 2 min",
    /// "2 min, 5 sec", "7 sec".
    ///
    /// From one day up the text shows days and hours, from one hour up hours and minutes, and
    /// below an hour minutes and seconds: seconds appear only under an hour. A unit that is zero
    /// is left out ("1 day", "1 hr", "5 min"); zero reads "0 sec".
    case units
    /// The marketplace widget: "2 hours", "1.5 hours" above an hour, "45 min" up to an hour.
    ///
    /// Up to and including one hour the text counts whole minutes ("60 min", "45 min", "1 min",
    /// "0 min"); above one hour it counts hours in steps of half an hour with at most one
    /// fractional digit ("1.5 hours", "2 hours", "26 hours" — never days). Hours use the wide
    /// unit name, minutes the abbreviated one. Decimal separators and plural forms follow the
    /// locale: "1,5 часа", "1,5 hodiny", "1,5 Stunden".
    ///
    /// With the default ``Rounding/up`` a countdown reads "1 min" from 59 s down to its last
    /// moment and "0 min" only when it is finished; 1 h 0 min 1 s … 1 h 30 min read "1.5 hours"
    /// and 1 h 30 min 1 s … 2 h read "2 hours". With ``Rounding/down`` 1 h … 1 h 29 min 59 s read
    /// "60 min", because one hour always reads in minutes.
    case coarse
    /// Full words for screen readers: "1 hour, 2 minutes left".
    ///
    /// The units are the wide form of ``units`` (same choice of units and rounding). For English,
    /// Russian, Czech, German, Korean and Chinese the text is wrapped in a phrase that needs no
    /// agreement with the number: "1 hour, 2 minutes left", "Осталось: 1 час 2 минуты",
    /// "Zbývá: 1 hodina a 2 minuty", "Noch 1 Stunde und 2 Minuten", "1시간 2분 남음",
    /// "剩余1小时2分钟". Zero reads "0 seconds left". Overtime reads "5 seconds over" (and the
    /// equivalent in those languages). Other languages get the bare units, with a minus sign
    /// for overtime.
    case spoken
  }

  /// The direction in which a value is rounded to the unit the text shows.
  public enum Rounding: String, Sendable, Hashable, Codable, CaseIterable {
    /// Toward positive infinity: what a countdown shows, which reads zero only when it is
    /// finished (6.2 s reads "00:07").
    ///
    /// Overtime keeps counting the same way below zero: 0.3 s over reads "00:00", 1.3 s over
    /// "-00:01".
    case up
    /// Toward negative infinity: what a stopwatch or an elapsed time shows (6.8 s reads "00:06").
    case down
  }

  /// The largest magnitude formatted as is: one billion days (about 2.7 million years).
  ///
  /// Longer durations are formatted as this value (with their sign). The limit keeps every number
  /// exact in Foundation's `Double` arithmetic and far away from durations near `Int64.max`
  /// seconds, at which `Duration.UnitsFormatStyle` traps on Linux. `Date.distantFuture` seen from
  /// today (about 62 billion seconds) is well inside it.
  public static let maximumMagnitude: Duration = .seconds(86_400 * 1_000_000_000)

  /// The shape of the text.
  public var preset: Preset
  /// The direction in which a value is rounded to the unit the text shows; `.up` for countdowns.
  public var rounding: Rounding
  /// The locale whose words, plural forms, digits and separators the text uses.
  public var locale: Locale

  /// Creates a style for `preset`, rounding in direction `rounding`, in `locale`.
  public init(_ preset: Preset, rounding: Rounding = .up, locale: Locale = .autoupdatingCurrent) {
    self.preset = preset
    self.rounding = rounding
    self.locale = locale
  }

  /// The text for `value` (the time left; negative for overtime).
  ///
  /// Each call builds Foundation format styles, which cost some tens of microseconds; format on a
  /// change of the displayed value, not on every frame.
  public func format(_ value: Duration) -> String {
    let shown = displayedValue(of: value)
    switch preset {
    case .digital: return formatDigital(shown)
    case .units: return formatUnits(shown, width: .abbreviated)
    case .coarse: return formatCoarse(shown)
    case .spoken: return formatSpoken(shown)
    }
  }

  /// This style in `locale`.
  public func locale(_ locale: Locale) -> Self {
    var copy = self
    copy.locale = locale
    return copy
  }

  /// This style rounding in direction `rounding`.
  public func rounding(_ rounding: Rounding) -> Self {
    var copy = self
    copy.rounding = rounding
    return copy
  }
}

extension FormatStyle where Self == CountdownFormatStyle {
  /// A countdown style for `preset`: `remaining.formatted(.countdown(.digital))`.
  ///
  /// See ``CountdownFormatStyle`` for what each preset prints and how it rounds.
  public static func countdown(
    _ preset: CountdownFormatStyle.Preset,
    rounding: CountdownFormatStyle.Rounding = .up,
    locale: Locale = .autoupdatingCurrent
  ) -> Self {
    CountdownFormatStyle(preset, rounding: rounding, locale: locale)
  }
}
