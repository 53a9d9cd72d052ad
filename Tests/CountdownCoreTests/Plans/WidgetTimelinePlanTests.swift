import CountdownCore
import Foundation
import TestSupport
import Testing

private enum Urgency: Equatable, Sendable { case calm, hurry, late }

/// `Countdown.widgetTimeline(of:at:on:reloadsPerDay:maximumEntries:)`: never a wrong value at any
/// sampled date, within the entries and reload budget given.
@Suite struct WidgetTimelinePlanTests {
  /// Checks `plan` at `count` random dates, at every entry's date and just before it, from `now`
  /// through `span` later.
  private func expectTrue<Display: CountdownDisplay>(
    _ plan: WidgetTimelinePlan<Display.Value>,
    _ countdown: Countdown<TestInstant>,
    _ display: Display,
    on timeline: WallClockTimeline<TestInstant>,
    at now: TestInstant,
    span: Duration,
    count: Int = 2_000,
    using generator: inout SeededGenerator,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let start = try #require(plan.entries.first?.date, sourceLocation: sourceLocation)
    #expect(abs(start.timeIntervalSince(timeline.date(for: now))) < 1e-6, sourceLocation: sourceLocation)
    for (previous, next) in zip(plan.entries, plan.entries.dropFirst()) {
      #expect(previous.date < next.date, sourceLocation: sourceLocation)
    }
    let dates = sampleDates(
      from: start, through: start.addingTimeInterval(span / .seconds(1)), boundaries: plan.entries.map(\.date),
      count: count, using: &generator)
    try expectNeverWrong(countdown, display, on: timeline, at: dates, sourceLocation: sourceLocation) { date in
      plan.entry(at: date).map {
        ShownContent(
          value: $0.value, timerInterval: $0.timerInterval, pausedRemaining: $0.pausedRemaining,
          isFinished: $0.isFinished)
      }
    }
  }

  @Test func theMarketplaceWindowFitsAndNeverReloads() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.theMarketplaceWindowFitsAndNeverReloads")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant + generator.duration(milliseconds: 0...1_000)
    let window = Countdown(duration: .seconds(7_200), startingAt: now)
    let plan = window.widgetTimeline(of: AdaptiveDisplay.coarse, at: now, on: timeline)
    let start = try #require(plan.entries.first?.date)
    let schedule = try window.changes(
      of: AdaptiveDisplay.coarse, from: start, through: start.addingTimeInterval(86_400), on: timeline, limit: 1_000)
    #expect(plan.entries.map(\.value) == schedule.map(\.value))
    #expect(plan.reload == .never && plan.horizon == nil)
    #expect(plan.entries.last?.isFinished == true && plan.entries.dropLast().allSatisfy { !$0.isFinished })
    try expectTrue(
      plan, window, AdaptiveDisplay.coarse, on: timeline, at: now, span: .seconds(8_000), using: &generator)
  }

  @Test func hoursAboveAnHourThenTheSystemTimer() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.hoursAboveAnHourThenTheSystemTimer")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let window = Countdown(duration: .seconds(7_200), startingAt: now)
    let hours = AdaptiveDisplay.coarse.map { $0 > .seconds(3_600) ? $0 : nil }
    let plan = window.widgetTimeline(of: hours, at: now, on: timeline)
    #expect(plan.entries.map(\.value) == [.seconds(7_200), .seconds(5_400), .some(nil), .some(nil)])
    #expect(plan.entries.map(\.isFinished) == [false, false, false, true])
    try expectTrue(plan, window, hours, on: timeline, at: now, span: .seconds(7_300), using: &generator)
  }

  /// A display that changes every second cannot be listed for long: the entries end at a horizon, the
  /// system timer alone shows from there, and WidgetKit reloads when the budget allows.
  @Test func secondsOverflowTheEntriesAndFallBackToTheSystemTimer() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.secondsOverflowTheEntriesAndFallBackToTheSystemTimer")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let window = Countdown(duration: .milliseconds(7_200_500), startingAt: now)
    let plan = window.widgetTimeline(of: RoundedDisplay.seconds, at: now, on: timeline, reloadsPerDay: 40)
    try #require(plan.entries.count == 100)
    let horizon = try #require(plan.horizon)
    #expect(plan.entries[98].date == horizon && plan.entries[98].value == nil && !plan.entries[98].isFinished)
    let end = timeline.date(for: now + .milliseconds(7_200_500))
    #expect(abs(plan.entries[99].date.timeIntervalSince(end)) < 1e-6 && plan.entries[99].isFinished)
    // 40 reloads a day: not before 36 minutes.
    #expect(plan.reload == .after(try #require(plan.entries.first?.date).addingTimeInterval(2_160)))
    try expectTrue(
      plan, window, RoundedDisplay.seconds, on: timeline, at: now, span: .seconds(7_300), using: &generator)
  }

  /// 26 hours in half hours, then minutes: more than the entries hold, so one reload, a day later.
  @Test func aCountdownOfMoreThanADay() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.aCountdownOfMoreThanADay")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let long = Countdown(duration: .seconds(26 * 3_600), startingAt: now)
    let plan = long.widgetTimeline(of: AdaptiveDisplay.coarse, at: now, on: timeline, maximumEntries: 100)
    let horizon = try #require(plan.horizon)
    #expect(plan.entries.count == 100 && plan.reload == .after(horizon))
    #expect(horizon.timeIntervalSince(timeline.date(for: now)) > 86_400)
    try expectTrue(
      plan, long, AdaptiveDisplay.coarse, on: timeline, at: now, span: .seconds(27 * 3_600), count: 20_000,
      using: &generator)
    // With room for every entry, it never reloads.
    let roomy = long.widgetTimeline(of: AdaptiveDisplay.coarse, at: now, on: timeline, maximumEntries: 200)
    #expect(roomy.reload == .never && roomy.entries.count == 50 + 60 + 1)
  }

  @Test func aPausedCountdownIsOneEntry() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.aPausedCountdownIsOneEntry")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let paused = Countdown(duration: .seconds(600), startingAt: now - .seconds(100)).paused(at: now - .seconds(50))
    let plan = paused.widgetTimeline(of: RoundedDisplay.seconds, at: now, on: timeline)
    #expect(plan.entries.count == 1 && plan.reload == .never)
    #expect(plan.entries.first?.pausedRemaining == .seconds(550) && plan.entries.first?.timerInterval == nil)
    try expectTrue(
      plan, paused, RoundedDisplay.seconds, on: timeline, at: now, span: .seconds(86_400), using: &generator)
  }

  @Test func randomCountdownsAndDisplaysAreNeverWrong() throws {
    var generator = testGenerator("WidgetTimelinePlanTests.randomCountdownsAndDisplaysAreNeverWrong")
    for round in 0..<60 {
      let timeline = try randomTimeline(using: &generator)
      let now = timeline.anchorInstant + generator.duration(milliseconds: -100_000...100_000)
      let total = generator.duration(milliseconds: 1_000...20_000_000)
      var countdown = Countdown(end: now + total * Double.random(in: -0.1...1.2, using: &generator), total: total)
      if round % 4 == 0 { countdown = countdown.paused(at: now - generator.duration(milliseconds: 0...5_000)) }
      let entries = Int.random(in: 3...150, using: &generator)
      let reloads = Int.random(in: 1...100, using: &generator)
      let span = total * 1.3
      switch round % 3 {
      case 0:
        let phases: PhaseDisplay<Urgency> = .phases(.calm, [total * 0.3: .hurry, total * -0.05: .late])
        let plan = countdown.widgetTimeline(
          of: phases, at: now, on: timeline, reloadsPerDay: reloads, maximumEntries: entries)
        try expectTrue(plan, countdown, phases, on: timeline, at: now, span: span, using: &generator)
      case 1:
        let plan = countdown.widgetTimeline(
          of: AdaptiveDisplay.adaptive, at: now, on: timeline, reloadsPerDay: reloads, maximumEntries: entries)
        #expect(plan.entries.count <= entries)
        if case .after(let date) = plan.reload {
          #expect(date >= timeline.date(for: now).addingTimeInterval(86_400 / Double(reloads)))
          #expect(date >= plan.horizon ?? .distantFuture)
        }
        try expectTrue(plan, countdown, AdaptiveDisplay.adaptive, on: timeline, at: now, span: span, using: &generator)
      default:
        let ring = ProgressDisplay(steps: 415, total: total)
        let plan = countdown.widgetTimeline(
          of: ring, at: now, on: timeline, reloadsPerDay: reloads, maximumEntries: entries)
        #expect(plan.entries.count <= entries)
        try expectTrue(plan, countdown, ring, on: timeline, at: now, span: span, using: &generator)
      }
    }
  }

  @Test func aStoredCountdownOnTheWallClockAlone() throws {
    let now = Date(timeIntervalSinceReferenceDate: 825_000_000.25)
    let running = try StoredCountdown(state: .running(end: now.addingTimeInterval(7_200)), total: .seconds(7_200))
    let plan = try running.widgetTimeline(of: AdaptiveDisplay.coarse, at: now)
    #expect(
      plan.entries.first?.value == .seconds(7_200)
        && plan.entries.first?.timerInterval == now...now.addingTimeInterval(7_200))
    // Stored as finished, read after the wall clock was set back: finished all the same.
    let finished = try StoredCountdown(state: .finished(end: now.addingTimeInterval(60)), total: nil)
    let shown = try finished.widgetTimeline(of: RoundedDisplay.seconds, at: now)
    #expect(shown.entries.map(\.isFinished) == [true] && shown.reload == .never)
    #expect(throws: WallClockTimelineError.nonFiniteDate(.targetDate)) {
      try running.widgetTimeline(of: RoundedDisplay.seconds, at: Date(timeIntervalSinceReferenceDate: .nan))
    }
  }
}
