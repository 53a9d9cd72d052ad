public import Foundation

/// The countdowns of one run: each row's end, in seconds after a common anchor that is known both as
/// a monotonic instant (for the engine) and as a wall-clock date (for the strategies, which compute
/// from `Date` as apps do).
public struct Workload: Sendable {
  /// The instant all ends are measured from.
  public let anchorInstant: ContinuousClock.Instant
  /// The same moment on the wall clock.
  public let anchorDate: Date
  /// The end of each row, in seconds after the anchor.
  public let ends: [Double]
  /// The display's unit in seconds while these rows run: 1 for seconds, 60 for minutes.
  public let unit: Int64

  /// A workload whose rows end at `ends` seconds after now.
  public init(ends: [Double], unit: Int64) {
    self.anchorInstant = ContinuousClock.now
    self.anchorDate = Date()
    self.ends = ends
    self.unit = unit
  }

  /// The number of rows.
  public var count: Int { ends.count }

  /// Row `row`'s end on the monotonic clock.
  public func endInstant(_ row: Int) -> ContinuousClock.Instant {
    anchorInstant.advanced(by: .seconds(ends[row]))
  }

  /// Row `row`'s end on the wall clock.
  public func endDate(_ row: Int) -> Date {
    anchorDate.addingTimeInterval(ends[row])
  }

  /// The value shown with `remaining` seconds left: rounded up to the unit, zero once finished.
  public func displayed(remaining: Double) -> Int64 {
    Self.displayed(remaining: remaining, unit: unit)
  }

  /// The value shown with `remaining` seconds left when rounding up to `unit` seconds.
  public static func displayed(remaining: Double, unit: Int64) -> Int64 {
    Swift.max(Int64((remaining / Double(unit)).rounded(.up)), 0) * unit
  }

  /// Seconds since the anchor at `instant`.
  public func seconds(at instant: ContinuousClock.Instant) -> Double {
    anchorInstant.duration(to: instant).seconds
  }

  /// Seconds since the anchor at `date`.
  public func seconds(at date: Date) -> Double {
    date.timeIntervalSince(anchorDate)
  }
}

/// A small seeded generator (SplitMix64), so that every run lays out the same countdowns.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
