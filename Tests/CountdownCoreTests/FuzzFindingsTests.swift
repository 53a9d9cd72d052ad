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
    // Duration's range is nil (the value does not change again). A later run found the same at
    // Duration.min for an elapsed display with a unit of 27,499 attoseconds.
    let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
    let tiny = attosecond * 27_499
    let displays: [(name: String, keepsContract: (Duration) -> Bool)] = [
      ("seconds", { Self.keepsContract(RoundedDisplay.seconds, at: $0) }),
      ("seconds with overtime", { Self.keepsContract(RoundedDisplay.secondsWithOvertime, at: $0) }),
      ("elapsed seconds", { Self.keepsContract(RoundedDisplay.elapsedSeconds, at: $0) }),
      ("7 s with overtime", { Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: $0) }),
      ("7 s elapsed", { Self.keepsContract(RoundedDisplay(unit: .seconds(7), reading: .elapsed), at: $0) }),
      ("1 as with overtime", { Self.keepsContract(RoundedDisplay(unit: attosecond, showsOvertime: true), at: $0) }),
      ("1 as elapsed", { Self.keepsContract(RoundedDisplay(unit: attosecond, reading: .elapsed), at: $0) }),
      ("27,499 as with overtime", { Self.keepsContract(RoundedDisplay(unit: tiny, showsOvertime: true), at: $0) }),
      ("27,499 as elapsed", { Self.keepsContract(RoundedDisplay(unit: tiny, reading: .elapsed), at: $0) }),
      ("adaptive", { Self.keepsContract(AdaptiveDisplay.adaptive, at: $0) }),
      ("coarse", { Self.keepsContract(AdaptiveDisplay.coarse, at: $0) }),
    ]
    let offsets: [Duration] = [
      .zero, attosecond, .milliseconds(500), .seconds(1), .milliseconds(1_500), .seconds(7), .seconds(61),
      .seconds(3_601),
    ]
    for offset in offsets {
      for remaining in [Self.smallest + offset, Self.largest - offset] {
        for display in displays {
          #expect(display.keepsContract(remaining), "\(display.name) at \(remaining)")
        }
      }
    }
    #expect(RoundedDisplay(unit: .seconds(7), showsOvertime: true).nextChange(after: Self.smallest) == nil)
    // The same displays keep it half-way to the limits, where the fuzzer probed them before.
    let half = Duration.seconds(Int64.max / 2)
    #expect(Self.keepsContract(AdaptiveDisplay.adaptive, at: half))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), showsOvertime: true), at: .zero - half))
    #expect(Self.keepsContract(RoundedDisplay(unit: .seconds(7), reading: .elapsed), at: .zero - half))
  }
}
