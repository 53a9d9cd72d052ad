import CountdownCore
import Foundation
import TestSupport
import Testing

private enum Colour: Equatable, Sendable { case green, yellow, red }

/// The wall-clock forms of a change schedule, checked against the exact value at every millisecond.
@Suite struct DateChangeScheduleTests {
  /// Dates and instants are the same thing on this timeline: an instant is the time since 2001-01-01.
  private let identity = try! WallClockTimeline(
    anchorDate: Date(timeIntervalSinceReferenceDate: 0), anchorInstant: TestInstant.zero)

  /// A date in 2026 with a random fraction of a second (not a whole number of milliseconds).
  private func randomDate(using generator: inout SeededGenerator) -> Date {
    Date(timeIntervalSinceReferenceDate: Double.random(in: 820_000_000...830_000_000, using: &generator))
  }

  private func checkDeadlineForm<Display: CountdownDisplay>(
    _ display: Display,
    left: TimeInterval,
    span: TimeInterval,
    seedSalt: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [CountdownChange<Date, Display.Value>] {
    let seed = SeededGenerator.testSeed() ^ seedSalt
    print("DateChangeScheduleTests seed \(seed) (salt \(seedSalt))")
    var generator = SeededGenerator(seed: seed)
    let start = randomDate(using: &generator)
    let deadline = start.addingTimeInterval(left + Double.random(in: 0..<0.001, using: &generator))
    let end = start.addingTimeInterval(span)
    let schedule = try display.changes(until: deadline, from: start, through: end, limit: 100_000)
    let deadlineInstant = try identity.instant(for: deadline)
    try expectDatedScheduleMatchesSampling(schedule, from: start, through: end, sourceLocation: sourceLocation) {
      date in
      display.value(remaining: try identity.instant(for: date).duration(to: deadlineInstant))
    }
    return schedule
  }

  @Test func deadlineFormForEveryBuiltInDisplay() throws {
    #expect(try checkDeadlineForm(RoundedDisplay.seconds, left: 7, span: 10, seedSalt: 1).count == 9)
    #expect(try checkDeadlineForm(RoundedDisplay.secondsWithOvertime, left: 3, span: 6, seedSalt: 2).count == 7)
    _ = try checkDeadlineForm(RoundedDisplay.elapsedSeconds, left: -2, span: 4, seedSalt: 3)
    _ = try checkDeadlineForm(AdaptiveDisplay.adaptive, left: 3_660, span: 90, seedSalt: 4)
    #expect(try checkDeadlineForm(RoundedDisplay.minutes, left: 190, span: 240, seedSalt: 9).count == 5)
    _ = try checkDeadlineForm(RoundedDisplay.elapsedMinutes, left: -50, span: 200, seedSalt: 10)
    let tiers = AdaptiveDisplay(
      [.init(above: .seconds(100), unit: .seconds(60)), .init(above: .milliseconds(10_500), unit: .seconds(7))],
      finest: .milliseconds(400))
    _ = try checkDeadlineForm(tiers, left: 140, span: 145, seedSalt: 11)
    let phases: PhaseDisplay<Colour> = .phases(.green, [.seconds(10): .red, .seconds(60): .yellow])
    #expect(try checkDeadlineForm(phases, left: 65, span: 70, seedSalt: 5).map(\.value) == [.green, .yellow, .red])
    #expect(
      try checkDeadlineForm(ProgressDisplay(steps: 450, total: .seconds(8)), left: 8, span: 9, seedSalt: 6).count == 451
    )
    _ = try checkDeadlineForm(
      RoundedDisplay.seconds.combined(with: phases).map { "\($0.first) \($0.second)" }, left: 12, span: 14, seedSalt: 7)
    #expect(try checkDeadlineForm(RoundedDisplay.seconds.map { _ in 0 }, left: 5, span: 7, seedSalt: 12).count == 1)
  }

  @Test func coarseAcrossBothTiers() throws {
    let values = try checkDeadlineForm(AdaptiveDisplay.coarse, left: 5_460, span: 1_925, seedSalt: 8).map(\.value)
    #expect(values.prefix(4) == [.seconds(7_200), .seconds(5_400), .seconds(3_600), .seconds(3_540)])
  }

  @Test func countdownThroughATimelineWithAReferenceOffset() throws {
    let seed = SeededGenerator.testSeed()
    print("DateChangeScheduleTests.countdownThroughATimelineWithAReferenceOffset seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    let anchorDate = randomDate(using: &generator)
    let anchor = TestInstant(generator.duration(milliseconds: 0...10_000_000))
    let offset = generator.duration(milliseconds: -300_000...300_000)
    let timeline = try WallClockTimeline(anchorDate: anchorDate, anchorInstant: anchor, referenceOffset: offset)
    let countdown = Countdown(end: anchor + generator.duration(milliseconds: 20_000...40_000), total: .seconds(60))
    let display = RoundedDisplay.seconds.combined(with: ProgressDisplay(steps: 30, total: .seconds(60)))
    // The schedule is in the reference clock's dates: start where the reference clock reads a random date.
    let start = timeline.date(for: anchor + generator.duration(milliseconds: 0...5_000))
    let end = start.addingTimeInterval(45)
    let schedule = try countdown.changes(of: display, from: start, through: end, on: timeline, limit: 1_000)
    try expectDatedScheduleMatchesSampling(schedule, from: start, through: end) { date in
      display.value(remaining: countdown.remaining(at: try timeline.instant(for: date)))
    }
    // Paused: one element, however long the range.
    let paused = countdown.paused(at: anchor)
    let frozen = try paused.changes(
      of: display, from: start, through: end.addingTimeInterval(86_400), on: timeline, limit: 10)
    #expect(frozen == [CountdownChange(at: start, value: display.value(remaining: paused.remaining(at: anchor)))])
  }

  @Test func limitKeepsTheFirstElements() throws {
    let start = Date(timeIntervalSinceReferenceDate: 825_000_000.25)
    let deadline = start.addingTimeInterval(30)
    let all = try RoundedDisplay.seconds.changes(until: deadline, from: start, through: deadline, limit: 1_000)
    #expect(all.count == 31)
    for limit in [0, 1, 2, 17, 31, 32] {
      let some = try RoundedDisplay.seconds.changes(until: deadline, from: start, through: deadline, limit: limit)
      #expect(some == Array(all.prefix(limit)))
    }
    #expect(try RoundedDisplay.seconds.changes(until: deadline, from: deadline, through: start, limit: 10).isEmpty)
  }

  @Test func badDatesThrowInsteadOfTrapping() {
    let now = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    let far = Date(timeIntervalSinceReferenceDate: 1e300)
    #expect(throws: WallClockTimelineError.nonFiniteDate(.targetDate)) {
      try RoundedDisplay.seconds.changes(until: nan, from: now, through: now, limit: 10)
    }
    #expect(throws: WallClockTimelineError.nonFiniteDate(.targetDate)) {
      try RoundedDisplay.seconds.changes(
        until: now, from: Date(timeIntervalSinceReferenceDate: .infinity), through: now, limit: 10)
    }
    #expect(throws: WallClockTimelineError.dateOutOfRange(.targetDate, far)) {
      try RoundedDisplay.seconds.changes(until: now, from: now, through: far, limit: 10)
    }
  }

  @Test func changesFinerThanADateAreMerged() throws {
    // 20,000 steps in 0.1 ms: a change every 5 ns, finer than a `Date` near 2026 (about 0.12 µs) can
    // tell apart. Each date listed shows the value in force from that date on.
    let start = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let display = ProgressDisplay(steps: 20_000, total: .microseconds(100))
    let deadline = start.addingTimeInterval(0.000_1)
    let schedule = try display.changes(until: deadline, from: start, through: deadline, limit: 100_000)
    #expect(schedule.count > 100 && schedule.count < 2_000)
    let deadlineInstant = try identity.instant(for: deadline)
    try expectDatedScheduleMatchesSampling(schedule, from: start, through: deadline) { date in
      display.value(remaining: try identity.instant(for: date).duration(to: deadlineInstant))
    }
  }

  /// The marketplace widget: a two-hour fitting window shown as "2 hours", "1.5 hours", "60 min", …,
  /// "1 min", then 0 at the deadline; a day's WidgetKit timeline of it has 63 entries.
  @Test func marketplaceWidgetDay() throws {
    let now = Date(timeIntervalSinceReferenceDate: 825_000_000)
    let deadline = now.addingTimeInterval(7_200)
    let day = try AdaptiveDisplay.coarse.changes(
      until: deadline, from: now, through: now.addingTimeInterval(86_400), limit: 200)
    #expect(day.count == 63)
    let texts = day.map { $0.value.formatted(.countdown(.coarse, locale: Locale(identifier: "en_US"))) }
    #expect(texts.prefix(4) == ["2 hours", "1.5 hours", "60 min", "59 min"])
    #expect(day.map(\.at).prefix(3) == [now, now.addingTimeInterval(1_800), now.addingTimeInterval(3_600)])
    #expect(day.last == CountdownChange(at: deadline, value: .zero))
  }
}
