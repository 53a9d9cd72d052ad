import CountdownCore
import Foundation
import Testing

/// Rounding direction, the boundaries of each preset, and overtime.
@Suite struct CountdownFormatStyleRoundingTests {
  static let english = Locale(identifier: "en")

  static func text(
    _ preset: CountdownFormatStyle.Preset, _ value: Duration, rounding: CountdownFormatStyle.Rounding = .up
  ) -> String {
    CountdownFormatStyle(preset, rounding: rounding, locale: english).format(value)
  }

  @Test(arguments: [
    (CountdownFormatStyle.Preset.digital, "00:07", "00:06"),
    (.units, "7 sec", "6 sec"),
    (.spoken, "7 seconds left", "6 seconds left"),
  ])
  func halfSecondRoundsByDirection(preset: CountdownFormatStyle.Preset, up: String, down: String) {
    #expect(Self.text(preset, .milliseconds(6_500)) == up)
    #expect(Self.text(preset, .milliseconds(6_500), rounding: .down) == down)
    #expect(Self.text(preset, .milliseconds(6_200)) == up)
    #expect(Self.text(preset, .milliseconds(6_000)) == down)
    #expect(Self.text(preset, .milliseconds(6_000), rounding: .down) == down)
  }

  @Test func digitalSwitchesToHoursAtOneHour() {
    #expect(Self.text(.digital, .milliseconds(3_599_500)) == "1:00:00")
    #expect(Self.text(.digital, .milliseconds(3_599_500), rounding: .down) == "59:59")
    #expect(Self.text(.digital, .seconds(3_600)) == "1:00:00")
    #expect(Self.text(.digital, .seconds(1_234 * 3_600)) == "1,234:00:00")
    #expect(
      CountdownFormatStyle(.digital, locale: Locale(identifier: "de")).format(.seconds(1_234 * 3_600))
        == "1.234:00:00")
  }

  @Test func unitsPickTheirPairAfterRounding() {
    #expect(Self.text(.units, .milliseconds(3_599_500)) == "1 hr")
    #expect(Self.text(.units, .milliseconds(3_599_500), rounding: .down) == "59 min, 59 sec")
    #expect(Self.text(.units, .seconds(3_601)) == "1 hr, 1 min")
    #expect(Self.text(.units, .seconds(3_659), rounding: .down) == "1 hr")
    #expect(Self.text(.units, .seconds(86_370)) == "1 day")
    #expect(Self.text(.units, .seconds(86_401)) == "1 day, 1 hr")
    #expect(Self.text(.units, .seconds(86_401), rounding: .down) == "1 day")
    #expect(Self.text(.units, .seconds(3 * 86_400 + 5 * 3_600)) == "3 days, 5 hr")
    #expect(Self.text(.units, .seconds(125)) == "2 min, 5 sec")
  }

  static let coarseCases: [(value: Duration, text: String)] = [
    (Duration.zero, "0 min"),
    (.nanoseconds(1), "1 min"),
    (.seconds(59), "1 min"),
    (.seconds(60), "1 min"),
    (.seconds(60) + .nanoseconds(1), "2 min"),
    (.seconds(45 * 60), "45 min"),
    (.seconds(59 * 60 + 1), "60 min"),
    (.seconds(3_600), "60 min"),
    (.seconds(3_600) + .nanoseconds(1), "1.5 hours"),
    (.seconds(3_601), "1.5 hours"),
    (.seconds(5_400), "1.5 hours"),
    (.seconds(5_401), "2 hours"),
    (.seconds(7_200), "2 hours"),
    (.seconds(7_201), "2.5 hours"),
    (.seconds(26 * 3_600), "26 hours"),
  ]

  @Test(arguments: coarseCases)
  func coarseBoundaries(value: Duration, text: String) {
    #expect(Self.text(.coarse, value) == text)
  }

  @Test func coarseRoundsDownForElapsedTime() {
    #expect(Self.text(.coarse, .seconds(59), rounding: .down) == "0 min")
    #expect(Self.text(.coarse, .seconds(3_659), rounding: .down) == "60 min")
    // Rounded down to half hours, 1 h 29 min is one hour, and one hour always reads in minutes.
    #expect(Self.text(.coarse, .seconds(5_399), rounding: .down) == "60 min")
    #expect(Self.text(.coarse, .seconds(5_400), rounding: .down) == "1.5 hours")
  }

  @Test func coarseIsIdempotentOnItsOwnValues() {
    let style = CountdownFormatStyle(.coarse, locale: Self.english)
    for seconds in stride(from: 0, through: 3 * 3_600, by: 7) {
      let value = Duration.seconds(seconds) + .milliseconds(300)
      let shown = style.displayedValue(of: value)
      #expect(shown >= value)
      #expect(style.displayedValue(of: shown) == shown, "\(value)")
      #expect(style.format(shown) == style.format(value), "\(value)")
    }
  }

  @Test func overtimeReadsAsMagnitudeWithMinusSign() {
    #expect(Self.text(.digital, .seconds(-5)) == "-00:05")
    #expect(Self.text(.digital, .seconds(-3_605)) == "-1:00:05")
    #expect(Self.text(.units, .seconds(-3_725)) == "-1 hr, 2 min")
    #expect(Self.text(.coarse, .seconds(-5_400)) == "-1.5 hours")
    #expect(Self.text(.spoken, .seconds(-5)) == "5 seconds over")
    #expect(Self.text(.spoken, .seconds(-3_725)) == "1 hour, 2 minutes over")
    #expect(
      CountdownFormatStyle(.spoken, locale: Locale(identifier: "de")).format(.seconds(-5))
        == "5 Sekunden über der Zeit")
    #expect(CountdownFormatStyle(.spoken, locale: Locale(identifier: "ko")).format(.seconds(-5)) == "5초 초과")
    #expect(CountdownFormatStyle(.spoken, locale: Locale(identifier: "zh-Hans")).format(.seconds(-5)) == "超时5秒钟")
  }

  @Test func overtimeUsesTheLocaleMinusSign() {
    // Swedish writes U+2212 MINUS SIGN, not a hyphen; Foundation knows, so the style does too.
    #expect(CountdownFormatStyle(.digital, locale: Locale(identifier: "sv")).format(.seconds(-5)) == "\u{2212}00:05")
  }

  @Test func aCountdownReadsZeroOnlyWhenFinished() {
    for preset in CountdownFormatStyle.Preset.allCases {
      let style = CountdownFormatStyle(preset, locale: Self.english)
      #expect(style.format(.nanoseconds(1)) != style.format(.zero), "\(preset)")
    }
  }

  @Test func tinyOvertimeRoundsToZeroUpAndToMinusOneDown() {
    let tiny = Duration(secondsComponent: 0, attosecondsComponent: -1)
    #expect(
      CountdownFormatStyle.Preset.allCases.map { Self.text($0, tiny) } == [
        "00:00", "0 sec", "0 min", "0 seconds left",
      ])
    #expect(
      CountdownFormatStyle.Preset.allCases.map { Self.text($0, tiny, rounding: .down) } == [
        "-00:01", "-1 sec", "-1 min", "1 second over",
      ])
  }
}
