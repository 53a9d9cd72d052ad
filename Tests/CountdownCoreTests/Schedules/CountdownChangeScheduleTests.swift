import CountdownCore
import Foundation
import Synchronization
import TestSupport
import Testing

private enum Colour: Equatable, Sendable { case green, yellow, red }

/// A display that counts the calls made to it, to show what a schedule computes and when.
private struct CountingDisplay<Base: CountdownDisplay>: CountdownDisplay {
  final class Calls: Sendable {
    let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
  }
  let base: Base
  let calls = Calls()
  func value(remaining: Duration) -> Base.Value {
    calls.count.withLock { $0 += 1 }
    return base.value(remaining: remaining)
  }
  func nextChange(after remaining: Duration) -> Duration? {
    calls.count.withLock { $0 += 1 }
    return base.nextChange(after: remaining)
  }
}

/// `CountdownChangeSchedule`, the dates a `TimelineView` redraws at: checked against the display's
/// exact value sampled every millisecond, against the eager dated schedule, and for laziness.
@Suite struct CountdownChangeScheduleTests {
  /// Dates and instants are the same thing on this timeline: an instant is the time since 2001-01-01.
  private let identity = try! WallClockTimeline(
    anchorDate: Date(timeIntervalSinceReferenceDate: 0), anchorInstant: TestInstant.zero)

  /// Checks the schedule of `display` for a deadline `left` seconds (and a random fraction of a
  /// millisecond) after a random start, over `span` seconds: redraws exactly where the sampled value
  /// changes, and the same dates as `changes(until:from:through:limit:)`.
  @discardableResult
  private func check<Display: CountdownDisplay>(
    _ display: Display,
    left: TimeInterval,
    span: TimeInterval,
    seedSalt: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [Date] {
    let seed = SeededGenerator.testSeed() ^ seedSalt
    print("CountdownChangeScheduleTests seed \(seed) (salt \(seedSalt))")
    var generator = SeededGenerator(seed: seed)
    let start = Date(timeIntervalSinceReferenceDate: Double.random(in: 820_000_000...830_000_000, using: &generator))
    let deadline = start.addingTimeInterval(left + Double.random(in: 0..<0.001, using: &generator))
    let end = start.addingTimeInterval(span)
    let schedule = try display.changeSchedule(until: deadline)
    let dates = Array(schedule.entries(from: start).prefix { $0 <= end })
    let deadlineInstant = try identity.instant(for: deadline)
    try expectDatedScheduleMatchesSampling(
      dates.map { CountdownChange(at: $0, value: schedule.value(at: $0)) }, from: start, through: end,
      sourceLocation: sourceLocation
    ) { date in
      display.value(remaining: try identity.instant(for: date).duration(to: deadlineInstant))
    }
    let eager = try display.changes(until: deadline, from: start, through: end, limit: 100_000)
    #expect(dates == eager.map(\.at), sourceLocation: sourceLocation)
    return dates
  }

  @Test func entriesAreTheDisplaysChangesForEveryBuiltInDisplay() throws {
    #expect(try check(RoundedDisplay.seconds, left: 7, span: 10, seedSalt: 1).count == 9)
    #expect(try check(RoundedDisplay.secondsWithOvertime, left: 3, span: 6, seedSalt: 2).count == 7)
    try check(RoundedDisplay.elapsedSeconds, left: -2, span: 4, seedSalt: 3)
    try check(AdaptiveDisplay.adaptive, left: 3_660, span: 90, seedSalt: 4)
    #expect(try check(RoundedDisplay.minutes, left: 190, span: 240, seedSalt: 5).count == 5)
    try check(AdaptiveDisplay.coarse, left: 5_400, span: 1_900, seedSalt: 6)
    let urgency = PhaseDisplay(
      initial: Colour.green,
      phases: [.init(startsAt: .seconds(5), value: .yellow), .init(startsAt: .seconds(2), value: .red)])
    #expect(try check(urgency, left: 8, span: 12, seedSalt: 7).count == 3)
    try check(ProgressDisplay(steps: 415, total: .seconds(8)), left: 8, span: 9, seedSalt: 8)
    try check(RoundedDisplay.seconds.combined(with: urgency), left: 6, span: 8, seedSalt: 9)
  }

  @Test func aScheduleOverAYearOfSecondsComputesOnlyWhatIsIterated() throws {
    let display = CountingDisplay(base: RoundedDisplay.seconds)
    let start = Date(timeIntervalSinceReferenceDate: 825_000_000.25)
    let schedule = try display.changeSchedule(until: start.addingTimeInterval(366 * 86_400))
    let entries = schedule.entries(from: start)
    #expect(display.calls.value == 0)
    let dates = Array(entries.prefix(5))
    // The start's value (twice), then per date one next change and two values: nothing ahead of what
    // was asked.
    #expect(display.calls.value == 2 + 3 * 4)
    #expect(dates.dropFirst().map { $0.timeIntervalSince(start) } == [1, 2, 3, 4])
    // A thousand dates later, still a few calls per date, and the year is still ahead.
    let before = display.calls.value
    var later = entries.dropFirst(1_000).makeIterator()
    let thousandth = later.next()
    #expect(display.calls.value - before <= 3 * 1_001)
    #expect(thousandth == start.addingTimeInterval(1_000))
    #expect(MemoryLayout.size(ofValue: entries) < 128)
  }

  @Test func lowFrequencyEntriesAreAMinuteApartAndEndWithTheLastChange() throws {
    let start = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let deadline = start.addingTimeInterval(630.5)
    let schedule = try RoundedDisplay.seconds.changeSchedule(until: deadline)
    let dates = Array(schedule.entries(from: start, minimumInterval: .seconds(60)))
    let gaps = zip(dates, dates.dropFirst()).map { $1.timeIntervalSince($0) }
    #expect(gaps.dropLast().allSatisfy { $0 >= 60 } && dates.count == 12)
    #expect(dates.last == deadline && schedule.value(at: deadline) == .zero)
    // Without the interval, one a second and the last at the deadline too.
    let every = Array(schedule.entries(from: start))
    #expect(every.count == 632 && every.last == deadline)
  }

  @Test func aDisplayThatStopsChangingEndsTheEntries() throws {
    let start = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let schedule = try RoundedDisplay.seconds.changeSchedule(until: start.addingTimeInterval(-5))
    #expect(Array(schedule.entries(from: start)) == [start])
    #expect(schedule.value(at: start) == .zero)
  }

  @Test func aDeadlineThatIsNotADateThrows() {
    for bad in [Double.nan, .infinity, -.infinity, 1e15] {
      #expect(throws: WallClockTimelineError.self) {
        try AdaptiveDisplay.coarse.changeSchedule(until: Date(timeIntervalSinceReferenceDate: bad))
      }
    }
  }

  @Test func datesThatCannotBeReadExactlyAreFarAwayNotATrap() throws {
    let deadline = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let schedule = try RoundedDisplay.seconds.changeSchedule(until: deadline)
    #expect(schedule.remaining(at: Date(timeIntervalSinceReferenceDate: .nan)) == .zero)
    #expect(schedule.remaining(at: Date(timeIntervalSinceReferenceDate: .infinity)) < .seconds(-1e15))
    #expect(schedule.remaining(at: Date(timeIntervalSinceReferenceDate: -.infinity)) > .seconds(1e15))
    #expect(Array(schedule.entries(from: Date(timeIntervalSinceReferenceDate: .nan))).count == 1)
  }
}
