import CountdownCore
import Foundation
import TestSupport
import Testing

/// What a widget entry or an activity's content claims at one date, to check against the countdown.
struct ShownContent<Value: Equatable> {
  /// The display's value, when the content claims one.
  var value: Value?
  /// The interval of the system timer, while running.
  var timerInterval: ClosedRange<Date>?
  /// The frozen time left, while paused.
  var pausedRemaining: Duration?
  /// Whether it claims that no time is left; `nil` when it claims nothing (stale content).
  var isFinished: Bool?
}

/// The dates to sample a plan at over `start...end`: `count` random ones, each of `boundaries` and the
/// date just before it, and the two ends.
func sampleDates(
  from start: Date, through end: Date, boundaries: [Date], count: Int, using generator: inout SeededGenerator
) -> [Date] {
  let span = end.timeIntervalSince(start)
  var dates = [start, end]
  for _ in 0..<count { dates.append(start.addingTimeInterval(span * Double.random(in: 0...1, using: &generator))) }
  for boundary in boundaries where boundary >= start && boundary <= end {
    dates.append(boundary)
    dates.append(Date(timeIntervalSinceReferenceDate: boundary.timeIntervalSinceReferenceDate.nextDown))
  }
  return dates.filter { $0 >= start && $0 <= end }.sorted()
}

/// Checks that what `shown(date)` claims at each of `dates` is true of `countdown` seen through
/// `display` on `timeline`: the value and the finished flag where claimed, the system timer counting to
/// the countdown's end while it runs, the frozen time while it is paused.
func expectNeverWrong<Display: CountdownDisplay>(
  _ countdown: Countdown<TestInstant>,
  _ display: Display,
  on timeline: WallClockTimeline<TestInstant>,
  at dates: [Date],
  sourceLocation: SourceLocation = #_sourceLocation,
  shown: (Date) -> ShownContent<Display.Value>?
) throws {
  let endDate = countdown.end.map { timeline.date(for: $0) }
  var wrong = 0
  for date in dates {
    guard let content = shown(date) else {
      Issue.record("nothing shown at \(date)", sourceLocation: sourceLocation)
      wrong += 1
      continue
    }
    let left = countdown.remaining(at: try timeline.instant(for: date))
    var problems: [String] = []
    if let value = content.value, value != display.value(remaining: left) {
      problems.append("value \(value), truly \(display.value(remaining: left))")
    }
    if let isFinished = content.isFinished, isFinished != (left <= .zero) { problems.append("finished \(isFinished)") }
    if let endDate {
      let upper = content.timerInterval?.upperBound
      if upper.map({ abs($0.timeIntervalSince(endDate)) > 1e-6 }) ?? true {
        problems.append("timer \(String(describing: upper))")
      }
      if content.timerInterval.map({ $0.lowerBound > date }) ?? false { problems.append("timer not started") }
      if content.pausedRemaining != nil { problems.append("paused time while running") }
    } else if content.pausedRemaining != left || content.timerInterval != nil {
      problems.append("paused \(String(describing: content.pausedRemaining)), truly \(left)")
    }
    if !problems.isEmpty {
      wrong += 1
      if wrong <= 3 {
        Issue.record("at \(date) (\(left) left): \(problems.joined(separator: ", "))", sourceLocation: sourceLocation)
      }
    }
  }
  #expect(wrong == 0, "\(wrong) of \(dates.count) samples wrong", sourceLocation: sourceLocation)
}

/// A timeline with a random anchor in 2026 and a random reference offset (a server's clock).
func randomTimeline(using generator: inout SeededGenerator) throws -> WallClockTimeline<TestInstant> {
  try WallClockTimeline(
    anchorDate: Date(timeIntervalSinceReferenceDate: Double.random(in: 820_000_000...830_000_000, using: &generator)),
    anchorInstant: TestInstant(generator.duration(milliseconds: 0...10_000_000)),
    referenceOffset: generator.duration(milliseconds: -300_000...300_000))
}

/// A generator seeded from `COUNTDOWN_TEST_SEED`, or at random, whose seed is printed with `test`.
func testGenerator(_ test: String) -> SeededGenerator {
  let seed = SeededGenerator.testSeed()
  print("\(test) seed \(seed) (replay with COUNTDOWN_TEST_SEED=\(seed))")
  return SeededGenerator(seed: seed)
}
