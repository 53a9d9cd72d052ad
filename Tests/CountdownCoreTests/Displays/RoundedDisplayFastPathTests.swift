@testable import CountdownCore
import TestSupport
import Testing

/// `RoundedDisplay` answers whole-second units with Int64 arithmetic; these tests hold that path to
/// the exact 128-bit one it replaces.
@Suite struct RoundedDisplayFastPathTests {
  /// 2⁶¹ s, the bound of the Int64 path.
  static let limitSeconds: Int64 = 1 << 61

  /// Whole-second units (the Int64 path) and units that must take the exact path.
  static let units: [(unit: Duration, isWholeSeconds: Bool)] = [
    (.seconds(1), true), (.seconds(7), true), (.seconds(60), true), (.seconds(3_600), true),
    (.seconds(86_400), true), (.seconds(limitSeconds - 1), true), (.seconds(limitSeconds), false),
    (.milliseconds(1_500), false), (.milliseconds(250), false), (.nanoseconds(1), false),
    (Duration(attoseconds: 1), false), (Duration(secondsComponent: 1, attosecondsComponent: 1), false),
  ]

  /// Every reading with and without overtime.
  static func displays(unit: Duration) -> [RoundedDisplay] {
    [false, true].flatMap { overtime in
      [RoundedDisplay.Reading.remaining, .elapsed].map {
        RoundedDisplay(unit: unit, reading: $0, showsOvertime: overtime)
      }
    }
  }

  @Test func wholeSecondUnitsTakeTheInt64Path() {
    for (unit, isWholeSeconds) in Self.units {
      for display in Self.displays(unit: unit) {
        #expect((display.unitSeconds != 0) == isWholeSeconds, "\(unit)")
        #expect((display.wholeSecondCount(remaining: .milliseconds(6_500)) != nil) == isWholeSeconds, "\(unit)")
        #expect((display.wholeSecondCount(remaining: .seconds(-Self.limitSeconds + 1)) != nil) == isWholeSeconds)
        #expect(display.wholeSecondCount(remaining: .seconds(Self.limitSeconds)) == nil)
        #expect(display.wholeSecondCount(remaining: .seconds(-Self.limitSeconds)) == nil)
      }
    }
  }

  @Test func equalityIgnoresHowTheUnitIsWritten() {
    #expect(RoundedDisplay(unit: .milliseconds(60_000)) == .minutes)
    #expect(RoundedDisplay(unit: .milliseconds(60_000)).hashValue == RoundedDisplay.minutes.hashValue)
    #expect(RoundedDisplay(unit: .seconds(60), reading: .elapsed) != .minutes)
    #expect(RoundedDisplay(unit: .seconds(1), showsOvertime: true) != .seconds)
    #expect(RoundedDisplay(unit: .milliseconds(1_001)) != .seconds)
  }

  @Test func agreesWithTheExactPath() {
    let seed = SeededGenerator.testSeed()
    var random = SeededGenerator(seed: seed)
    print("RoundedDisplayFastPathTests.agreesWithTheExactPath seed: \(seed) (replay with COUNTDOWN_TEST_SEED=\(seed))")
    var mismatches = 0
    for (unit, _) in Self.units {
      for display in Self.displays(unit: unit) {
        for _ in 0..<4_200 {
          let remaining = Self.remainingTime(near: unit, using: &random)
          let value = display.value(remaining: remaining)
          let next = display.nextChange(after: remaining)
          let exactValue = display.exactValue(remaining: remaining)
          let exactNext = display.exactNextChange(after: remaining)
          if value != exactValue || next != exactNext {
            mismatches += 1
            if mismatches <= 10 {
              Issue.record(
                """
                seed \(seed): \(display) at \(remaining) (\(remaining.attoseconds) as): value \(value), \
                exactly \(exactValue); next change \(String(describing: next)), \
                exactly \(String(describing: exactNext))
                """)
            }
          }
        }
      }
    }
    #expect(mismatches == 0, "seed \(seed)")
  }

  /// A remaining time where rounding is delicate: on and beside multiples of `unit`, around zero,
  /// whole seconds ± 1 attosecond, random times of either sign, near the Int64 path's bound and
  /// near (and beyond) the limits of `Duration`'s Int64 seconds.
  static func remainingTime(near unit: Duration, using random: inout SeededGenerator) -> Duration {
    let second: Int128 = 1_000_000_000_000_000_000
    let offsets: [Int128] = [0, 1, -1, 1_000_000_000, -1_000_000_000, second - 1, -(second - 1), second, -second]
    switch Int.random(in: 0..<8, using: &random) {
    case 0:
      let multiple = Duration.multiple(of: unit, count: Int128(Int.random(in: -1_000...1_000, using: &random)))
      return multiple + Duration(attoseconds: offsets.randomElement(using: &random)!)
    case 1:
      let multiple = Duration.multiple(of: unit, count: Int128(Int.random(in: -20...20, using: &random)))
      let span = Swift.max(unit.attoseconds, 2)
      return multiple + Duration(attoseconds: Int128.random(in: -span...span, using: &random))
    case 2:
      return Duration(attoseconds: Int128.random(in: -10_000 * second...10_000 * second, using: &random))
    case 3:
      let bound = Duration.max.attoseconds
      return Duration(attoseconds: Int128.random(in: -bound...bound, using: &random))
    case 4:
      let edge = Int128(limitSeconds) * second * (Bool.random(using: &random) ? 1 : -1)
      return Duration(attoseconds: edge + Int128.random(in: -3 * second...3 * second, using: &random))
    case 5:
      let edge = Bool.random(using: &random) ? Duration.max.attoseconds : Duration.min.attoseconds
      let span = 3 * Swift.max(unit.attoseconds, second)
      return Duration(attoseconds: edge + Int128.random(in: -span...span, using: &random))
    case 6:
      let seconds = Int128(Int64.random(in: -1_000_000...1_000_000, using: &random))
      return Duration(attoseconds: seconds * second + offsets.randomElement(using: &random)!)
    default:
      return [Duration.zero, Duration(attoseconds: 1), Duration(attoseconds: -1), .nanoseconds(-1), .max, .min]
        .randomElement(using: &random)!
    }
  }
}
