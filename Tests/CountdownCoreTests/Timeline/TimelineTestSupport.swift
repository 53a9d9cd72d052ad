import TestSupport
import Foundation

// Helpers shared by the timeline tests: random values and tolerant comparisons.

extension Duration {
  /// A duration drawn uniformly (to the attosecond) between `range`'s bounds, in whole seconds.
  static func random(seconds range: ClosedRange<Int64>, using generator: inout SeededGenerator) -> Duration {
    let seconds = Int64.random(in: range, using: &generator)
    let attoseconds = Int64.random(in: 0..<1_000_000_000_000_000_000, using: &generator)
    return .seconds(seconds) + Duration(secondsComponent: 0, attosecondsComponent: attoseconds)
  }

  /// Whether this duration and `other` are at most `tolerance` apart.
  func isClose(to other: Duration, within tolerance: Duration = .microseconds(1)) -> Bool {
    let difference = self - other
    return .zero - tolerance <= difference && difference <= tolerance
  }
}

extension Date {
  /// A date drawn uniformly between `range`'s bounds, in seconds since 2001-01-01.
  static func random(secondsSinceReferenceDate range: ClosedRange<Double>, using generator: inout SeededGenerator)
    -> Date
  {
    Date(timeIntervalSinceReferenceDate: Double.random(in: range, using: &generator))
  }

  /// Whether this date and `other` are at most `tolerance` seconds apart.
  func isClose(to other: Date, within tolerance: TimeInterval = 1e-6) -> Bool {
    abs(timeIntervalSince(other)) <= tolerance
  }
}

extension TestInstant {
  /// Whether this instant and `other` are at most `tolerance` apart.
  func isClose(to other: TestInstant, within tolerance: Duration = .microseconds(1)) -> Bool {
    offset.isClose(to: other.offset, within: tolerance)
  }
}
