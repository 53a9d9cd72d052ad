/// Lateness samples in fixed buckets: 10 µs wide up to 2 s, 10 ms wide up to 100 s, and beyond.
struct LatencyHistogram: Sendable {
  private static let fineWidth = 10e-6
  private static let fineCount = 200_000
  private static let coarseWidth = 10e-3
  private static let coarseCount = 10_000

  private var fine = [UInt32](repeating: 0, count: fineCount)
  private var coarse = [UInt32](repeating: 0, count: coarseCount + 1)
  private(set) var count = 0
  private(set) var maximum = 0.0

  mutating func add(_ seconds: Double) {
    count += 1
    if seconds > maximum { maximum = seconds }
    let fineIndex = Int(seconds / Self.fineWidth)
    if fineIndex < Self.fineCount {
      fine[fineIndex] &+= 1
    } else {
      coarse[Swift.min(Int(seconds / Self.coarseWidth), Self.coarseCount)] &+= 1
    }
  }

  /// The sample below which a fraction `quantile` of the samples lie (the top of its bucket), in seconds.
  func value(atQuantile quantile: Double) -> Double {
    guard count > 0 else { return 0 }
    let rank = Swift.max(1, Int((quantile * Double(count)).rounded(.up)))
    var seen = 0
    for (index, bucket) in fine.enumerated() where bucket > 0 {
      seen += Int(bucket)
      if seen >= rank { return Swift.min(Double(index + 1) * Self.fineWidth, maximum) }
    }
    for (index, bucket) in coarse.enumerated() where bucket > 0 {
      seen += Int(bucket)
      if seen >= rank { return Swift.min(Double(index + 1) * Self.coarseWidth, maximum) }
    }
    return maximum
  }

  mutating func reset() {
    self = LatencyHistogram()
  }
}
