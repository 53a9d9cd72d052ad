import CountdownCore
import Foundation
import Testing

/// Huge, tiny and boundary inputs never trap and read plausibly.
@Suite struct CountdownFormatStyleExtremeTests {
  static let english = Locale(identifier: "en")

  static func texts(_ value: Duration, rounding: CountdownFormatStyle.Rounding = .up) -> [String] {
    CountdownFormatStyle.Preset.allCases.map {
      CountdownFormatStyle($0, rounding: rounding, locale: english).format(value)
    }
  }

  @Test func distantFutureReadsInDaysAndHours() {
    // 2025-01-01T00:00:00Z to 4001-01-01T00:00:00Z: 62,356,521,600 s = 17,321,256 h = 721,719 days.
    let start = Date(timeIntervalSince1970: 1_735_689_600)
    let remaining = Duration.seconds(Date.distantFuture.timeIntervalSince(start))
    #expect(
      Self.texts(remaining) == [
        "17,321,256:00:00", "721,719 days", "17,321,256 hours", "721,719 days left",
      ])
  }

  @Test func zero() {
    #expect(Self.texts(.zero) == ["00:00", "0 sec", "0 min", "0 seconds left"])
    #expect(Self.texts(.zero, rounding: .down) == ["00:00", "0 sec", "0 min", "0 seconds left"])
  }

  @Test func hugeValuesClampToTheDocumentedMaximum() {
    let clamped = ["24,000,000,000:00:00", "1,000,000,000 days", "24,000,000,000 hours", "1,000,000,000 days left"]
    #expect(Self.texts(CountdownFormatStyle.maximumMagnitude) == clamped)
    #expect(Self.texts(CountdownFormatStyle.maximumMagnitude + .seconds(1)) == clamped)
    #expect(Self.texts(Duration(secondsComponent: .max, attosecondsComponent: 0)) == clamped)
    #expect(
      Self.texts(Duration(secondsComponent: .min, attosecondsComponent: 0)) == [
        "-24,000,000,000:00:00", "-1,000,000,000 days", "-24,000,000,000 hours", "1,000,000,000 days over",
      ])
  }

  @Test(arguments: [
    Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999),
    Duration(secondsComponent: .max - 3, attosecondsComponent: 0),
    Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999),
    Duration(secondsComponent: .min + 3, attosecondsComponent: 0),
    Duration(secondsComponent: 0, attosecondsComponent: 1),
    Duration(secondsComponent: 0, attosecondsComponent: -1),
  ])
  func neverTrapsInAnyLocaleOrDirection(value: Duration) {
    for locale in ["en", "ru", "cs", "de", "ko", "zh-Hans", "ar-EG", "ja"] {
      for preset in CountdownFormatStyle.Preset.allCases {
        for rounding in CountdownFormatStyle.Rounding.allCases {
          let text = CountdownFormatStyle(preset, rounding: rounding, locale: Locale(identifier: locale)).format(value)
          #expect(!text.isEmpty, "\(preset) \(rounding) \(locale)")
        }
      }
    }
  }
}
