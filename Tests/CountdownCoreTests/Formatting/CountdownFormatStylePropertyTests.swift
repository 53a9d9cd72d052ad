import TestSupport
import CountdownCore
import Foundation
import Testing

/// Seeded random checks; each prints its seed, and `COUNTDOWN_TEST_SEED=<seed> swift test` replays it.
@Suite struct CountdownFormatStylePropertyTests {
  static let iterations = 2_000

  /// A random duration whose magnitude is spread over seconds, minutes, hours and days, below
  /// 1,000 hours (so digital hours need no grouping separator), with a random sub-second part.
  static func randomDuration(using generator: inout SeededGenerator, allowNegative: Bool = true) -> Duration {
    let limits: [Int64] = [90, 5_400, 129_600, 3_599_999]
    let seconds = Int64.random(in: 0..<limits.randomElement(using: &generator)!, using: &generator)
    let attoseconds =
      Bool.random(using: &generator) ? 0 : Int64.random(in: 0..<1_000_000_000_000_000_000, using: &generator)
    let value = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    return allowNegative && Bool.random(using: &generator) ? .zero - value : value
  }

  /// The signed number of seconds a digital text shows: "-1:02:05" → -3725, or nil if malformed.
  static func parseDigital(_ text: String) -> Int64? {
    let negative = text.hasPrefix("-")
    let fields = text.dropFirst(negative ? 1 : 0).split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2 || fields.count == 3, fields.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
    if fields.count == 2 && fields[0].count != 2 { return nil }
    if fields.count == 3 && (fields[0].hasPrefix("0") || fields[0].isEmpty) { return nil }
    let numbers = fields.compactMap { Int64($0) }
    guard numbers.count == fields.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
    let seconds = numbers.reduce(0) { $0 * 60 + $1 }
    if fields.count == 3 && seconds < 3_600 { return nil }
    if fields.count == 2 && seconds >= 3_600 { return nil }
    return negative ? -seconds : seconds
  }

  @Test(arguments: CountdownFormatStyle.Rounding.allCases)
  func digitalParsesBackToTheRoundedSeconds(rounding: CountdownFormatStyle.Rounding) {
    let seed = SeededGenerator.testSeed()
    print("digitalParsesBackToTheRoundedSeconds(\(rounding)) seed: \(seed)")
    var generator = SeededGenerator(seed: seed)
    let style = CountdownFormatStyle(.digital, rounding: rounding, locale: Locale(identifier: "en"))
    for _ in 0..<Self.iterations {
      let value = Self.randomDuration(using: &generator)
      let (seconds, attoseconds) = value.components
      let floor = attoseconds < 0 ? seconds - 1 : seconds
      let ceiling = attoseconds > 0 ? seconds + 1 : seconds
      let expected = rounding == .up ? ceiling : floor
      let text = style.format(value)
      #expect(Self.parseDigital(text) == expected, "seed \(seed): \(value) formatted as \(text)")
    }
  }

  @Test(arguments: CountdownFormatStyle.Preset.allCases)
  func displayedValueIsStableAndFormatsTheSame(preset: CountdownFormatStyle.Preset) {
    let seed = SeededGenerator.testSeed()
    print("displayedValueIsStableAndFormatsTheSame(\(preset)) seed: \(seed)")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<Self.iterations / 4 {
      let value = Self.randomDuration(using: &generator)
      let rounding = CountdownFormatStyle.Rounding.allCases.randomElement(using: &generator)!
      let locale = ["en", "ru", "cs"].randomElement(using: &generator)!
      let style = CountdownFormatStyle(preset, rounding: rounding, locale: Locale(identifier: locale))
      let shown = style.displayedValue(of: value)
      let context: Comment = "seed \(seed): \(value) \(rounding) \(locale) shows \(shown)"
      #expect(rounding == .up ? shown >= value : shown <= value, context)
      #expect(style.displayedValue(of: shown) == shown, context)
      #expect(style.format(shown) == style.format(value), context)
    }
  }
}
