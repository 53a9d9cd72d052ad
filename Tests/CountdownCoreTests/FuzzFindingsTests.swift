import CountdownCore
import Testing

/// Inputs the fuzzers (Fuzz/run) found, kept as tests. A finding that is fixed is a plain test; one
/// that is not yet fixed is a known issue, so that this test fails the day it is fixed and the
/// known-issue mark must go.
@Suite("Fuzzer findings")
struct FuzzFindingsTests {
  static let largest = Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999)
  static let smallest = Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999)

  /// Whether `display` keeps the `CountdownDisplay` contract at `remaining`.
  static func keepsContract<Display: CountdownDisplay>(_ display: Display, at remaining: Duration) -> Bool {
    guard let next = display.nextChange(after: remaining) else { return true }
    let justAbove = next + Duration(secondsComponent: 0, attosecondsComponent: 1)
    return next < remaining && display.value(remaining: justAbove) == display.value(remaining: remaining)
      && display.value(remaining: next) != display.value(remaining: remaining)
  }

  @Test("Within one unit of Duration's limits, displays keep their contract")
  func saturationAtDurationLimits() {
    // Found by the core fuzz target on its first run (2026-11-23): the next change was computed as
    // the value rounded up minus one unit, and rounding up saturates at Duration.max (and stepping
    // down at Duration.min). Fixed: the last multiple below is counted, and a next change beyond
    // Duration's range is nil (the value does not change again).
    #expect(Self.keepsContract(AdaptiveDisplay.adaptive, at: Self.largest))
    #expect(Self.keepsContract(AdaptiveDisplay.coarse, at: Self.largest))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: Self.smallest))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), reading: .elapsed), at: Self.smallest))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: Self.largest))
    #expect(Self.keepsContract(RoundedDisplay.seconds, at: Self.largest))
    let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
    #expect(Self.keepsContract(RoundedDisplay(unit: attosecond, showsOvertime: true), at: Self.smallest))
    #expect(Self.keepsContract(RoundedDisplay(unit: attosecond, reading: .elapsed), at: Self.smallest))
    #expect(RoundedDisplay(unit: .seconds(7), showsOvertime: true).nextChange(after: Self.smallest) == nil)
    // The same displays keep it half-way to the limits, where the fuzzer probes them.
    let half = Duration.seconds(Int64.max / 2)
    #expect(Self.keepsContract(AdaptiveDisplay.adaptive, at: half))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: .zero - half))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), reading: .elapsed), at: .zero - half))
  }

  @Test("Near Duration's limits, every built-in rounding keeps its contract")
  func contractNearTheLimits() {
    let offsets: [Duration] = [
      .zero, Duration(secondsComponent: 0, attosecondsComponent: 1), .milliseconds(500), .seconds(1),
      .milliseconds(1_500), .seconds(7), .seconds(61), .seconds(3_601),
    ]
    for offset in offsets {
      for remaining in [Self.smallest + offset, Self.largest - offset] {
        #expect(Self.keepsContract(RoundedDisplay.seconds, at: remaining), "\(remaining)")
        #expect(Self.keepsContract(RoundedDisplay.secondsWithOvertime, at: remaining), "\(remaining)")
        #expect(Self.keepsContract(RoundedDisplay.elapsedSeconds, at: remaining), "\(remaining)")
        #expect(
          Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: remaining), "\(remaining)")
        #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), reading: .elapsed), at: remaining), "\(remaining)")
        let tiny = Duration(secondsComponent: 0, attosecondsComponent: 27_499)
        #expect(Self.keepsContract(RoundedDisplay(unit: tiny, reading: .elapsed), at: remaining), "\(remaining)")
        #expect(Self.keepsContract(RoundedDisplay(unit: tiny, showsOvertime: true), at: remaining), "\(remaining)")
        #expect(Self.keepsContract(AdaptiveDisplay.adaptive, at: remaining), "\(remaining)")
        #expect(Self.keepsContract(AdaptiveDisplay.coarse, at: remaining), "\(remaining)")
      }
    }
  }
}
