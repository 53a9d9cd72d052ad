import Foundation

/// A small, fast, seedable random number generator (SplitMix64), so random tests can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that produces the same sequence for the same `seed`.
  init(seed: UInt64) {
    state = seed
  }

  /// A seed from `COUNTDOWN_TEST_SEED` if it is set, otherwise a fresh random one; print it with the
  /// test so that a failure can be replayed with `COUNTDOWN_TEST_SEED=<seed> swift test`.
  static func testSeed() -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["COUNTDOWN_TEST_SEED"], let seed = UInt64(text) {
      return seed
    }
    return UInt64.random(in: .min ... .max)
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
