import Foundation

/// SplitMix64: a tiny, fast, seedable generator, so that every random test can be replayed from the
/// seed it prints.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  /// The generator's current state.
  public private(set) var state: UInt64

  /// A generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// A seed from `COUNTDOWN_TEST_SEED` if it is set, otherwise a fresh random one; print it with the
  /// test so that a failure can be replayed with `COUNTDOWN_TEST_SEED=<seed> swift test`.
  public static func testSeed() -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["COUNTDOWN_TEST_SEED"], let seed = UInt64(text) {
      return seed
    }
    return UInt64.random(in: .min ... .max)
  }

  /// The next value in the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A random duration in `range` (milliseconds) plus a random sub-millisecond part.
  public mutating func duration(milliseconds range: ClosedRange<Int64>) -> Duration {
    .milliseconds(Int64.random(in: range, using: &self)) + .nanoseconds(Int64.random(in: 0..<1_000_000, using: &self))
  }
}
