import CountdownCore
import Foundation
import TestSupport
import Testing

private enum Urgency: String, Hashable, Codable, Sendable { case calm, hurry, late }

/// `Countdown.liveActivity(of:at:on:startedAt:maximumUpdates:dismissAfterFinish:)`: the content at every
/// sampled date until the activity leaves the Lock Screen is never wrong where it claims something (its
/// value and finished flag until their stale date, its system timer always), and the ending respects the
/// system's 8 + 4 hours.
@Suite struct LiveActivityPlanTests {
  static let eightHours: TimeInterval = 8 * 3_600
  static let fourHours: TimeInterval = 4 * 3_600

  /// Checks `plan` at `count` random dates and at each of its dates (and just before), from its first
  /// date until it leaves the Lock Screen.
  private func expectTrue<Display: CountdownDisplay>(
    _ plan: LiveActivityPlan<Display.Value>,
    _ countdown: Countdown<TestInstant>,
    _ display: Display,
    on timeline: WallClockTimeline<TestInstant>,
    at now: TestInstant,
    count: Int = 3_000,
    using generator: inout SeededGenerator,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws where Display.Value: Hashable & Codable {
    let start = plan.date
    #expect(plan.updates.first.map { $0.date == start } ?? true, sourceLocation: sourceLocation)
    #expect(abs(start.timeIntervalSince(timeline.date(for: now))) < 1e-6, sourceLocation: sourceLocation)
    for (previous, next) in zip(plan.updates, plan.updates.dropFirst()) {
      #expect(previous.date < next.date && previous.staleDate == next.date, sourceLocation: sourceLocation)
    }
    #expect(plan.updates.allSatisfy { $0.date < plan.ending.date }, sourceLocation: sourceLocation)
    #expect(plan.ending.dismissalDate <= plan.ending.date.addingTimeInterval(Self.fourHours))
    let boundaries = plan.updates.map(\.date) + plan.updates.compactMap(\.staleDate) + [plan.ending.date]
    let dates = sampleDates(
      from: start,
      through: Date(timeIntervalSinceReferenceDate: plan.ending.dismissalDate.timeIntervalSinceReferenceDate.nextDown),
      boundaries: boundaries + [plan.ending.staleDate].compactMap { $0 }, count: count, using: &generator)
    try expectNeverWrong(countdown, display, on: timeline, at: dates, sourceLocation: sourceLocation) { date in
      plan.content(at: date).map { state, staleDate in
        let fresh = staleDate.map { date < $0 } ?? true
        return ShownContent(
          value: fresh ? state.value : nil, timerInterval: state.timerInterval, pausedRemaining: state.pausedRemaining,
          isFinished: fresh ? state.isFinished : nil)
      }
    }
  }

  @Test func aTwoHourWindowEndsAtTheFinishAndLingersAQuarterOfAnHour() throws {
    var generator = testGenerator("LiveActivityPlanTests.aTwoHourWindowEndsAtTheFinishAndLingersAQuarterOfAnHour")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let window = Countdown(duration: .seconds(7_200), startingAt: now)
    let urgency: PhaseDisplay<Urgency> = .phases(.calm, [.seconds(600): .hurry, .zero: .late])
    let plan = window.liveActivity(of: urgency, at: now, on: timeline)
    #expect(plan.updates.map(\.state.value) == [.calm, .hurry])
    let first = try #require(plan.updates.first)
    #expect(abs(try #require(first.state.timerInterval?.lowerBound).timeIntervalSince(first.date)) < 1e-6)
    let finish = try #require(plan.updates.last?.staleDate)
    #expect(!plan.ending.isBySystem && plan.ending.date == finish && plan.ending.staleDate == nil)
    #expect(plan.ending.state.value == .late && plan.ending.state.isFinished)
    #expect(plan.ending.dismissalDate == finish.addingTimeInterval(900) && plan.earliestStartCoveringFinish == nil)
    try expectTrue(plan, window, urgency, on: timeline, at: now, using: &generator)
  }

  @Test func moreChangesThanUpdatesGoStaleButNeverWrong() throws {
    var generator = testGenerator("LiveActivityPlanTests.moreChangesThanUpdatesGoStaleButNeverWrong")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let window = Countdown(duration: .seconds(7_200), startingAt: now)
    let plan = window.liveActivity(of: AdaptiveDisplay.coarse, at: now, on: timeline, maximumUpdates: 16)
    #expect(plan.updates.count == 16)
    // The 16th goes stale at the 17th change of the coarse display: 60 minutes, then 15 minutes later.
    #expect(plan.updates.last?.staleDate == plan.updates.first?.date.addingTimeInterval(3_600 + 14 * 60))
    #expect(!plan.ending.isBySystem)
    try expectTrue(plan, window, AdaptiveDisplay.coarse, on: timeline, at: now, using: &generator)
  }

  @Test func aPausedCountdownIsEndedByTheSystemShowingItsFrozenTime() throws {
    var generator = testGenerator("LiveActivityPlanTests.aPausedCountdownIsEndedByTheSystemShowingItsFrozenTime")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let paused = Countdown(duration: .seconds(600), startingAt: now).paused(at: now + .seconds(1))
    let plan = paused.liveActivity(of: RoundedDisplay.minutes, at: now + .seconds(5), on: timeline)
    let first = try #require(plan.updates.first)
    #expect(plan.updates.count == 1 && first.staleDate == nil && first.state.pausedRemaining == .seconds(599))
    #expect(plan.ending.isBySystem && plan.ending.state == first.state)
    #expect(plan.ending.date == first.date.addingTimeInterval(Self.eightHours))
    #expect(plan.ending.dismissalDate == plan.ending.date.addingTimeInterval(Self.fourHours))
    try expectTrue(plan, paused, RoundedDisplay.minutes, on: timeline, at: now + .seconds(5), using: &generator)
  }

  /// 26 hours: the system ends the activity after 8, the Lock Screen keeps its last content 4 more
  /// (the timer still counting, right), and a start 8 hours before the end would have covered the finish.
  @Test func aCountdownOfMoreThanEightHours() throws {
    var generator = testGenerator("LiveActivityPlanTests.aCountdownOfMoreThanEightHours")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let long = Countdown(duration: .seconds(26 * 3_600), startingAt: now)
    let urgency: PhaseDisplay<Urgency> = .phases(.calm, [.seconds(3_600): .hurry, .zero: .late])
    let plan = long.liveActivity(of: urgency, at: now, on: timeline)
    let first = try #require(plan.updates.first)
    #expect(plan.updates.count == 1 && first.staleDate == first.date.addingTimeInterval(25 * 3_600))
    #expect(plan.ending.isBySystem && plan.ending.date == first.date.addingTimeInterval(Self.eightHours))
    #expect(plan.ending.state == first.state)
    let covering = try #require(plan.earliestStartCoveringFinish)
    #expect(abs(covering.timeIntervalSince(first.date) - 18 * 3_600) < 1e-6)
    try expectTrue(plan, long, urgency, on: timeline, at: now, using: &generator)
    // Started at that date instead, the activity covers the finish and the app ends it there.
    let later = now + .seconds(18 * 3_600 + 1)
    let covered = long.liveActivity(of: urgency, at: later, on: timeline)
    #expect(!covered.ending.isBySystem && covered.earliestStartCoveringFinish == nil)
    try expectTrue(covered, long, urgency, on: timeline, at: later, using: &generator)
  }

  @Test func anActivityStartedEarlierEndsEightHoursAfterItsStart() throws {
    var generator = testGenerator("LiveActivityPlanTests.anActivityStartedEarlierEndsEightHoursAfterItsStart")
    let timeline = try randomTimeline(using: &generator)
    let started = timeline.anchorInstant
    let now = started + .seconds(7 * 3_600 + 1_800)
    let countdown = Countdown(end: now + .seconds(3_600), total: .seconds(8 * 3_600))
    let plan = countdown.liveActivity(of: AdaptiveDisplay.coarse, at: now, on: timeline, startedAt: started)
    #expect(
      plan.ending.isBySystem && plan.ending.date == timeline.date(for: started).addingTimeInterval(Self.eightHours))
    #expect(plan.updates.allSatisfy { $0.date < plan.ending.date })
    try expectTrue(plan, countdown, AdaptiveDisplay.coarse, on: timeline, at: now, using: &generator)
  }

  @Test func aCountdownAlreadyFinishedIsEndedNow() throws {
    var generator = testGenerator("LiveActivityPlanTests.aCountdownAlreadyFinishedIsEndedNow")
    let timeline = try randomTimeline(using: &generator)
    let now = timeline.anchorInstant
    let over = Countdown(end: now - .seconds(30), total: .seconds(60))
    let plan = over.liveActivity(
      of: RoundedDisplay.secondsWithOvertime, at: now, on: timeline, dismissAfterFinish: .seconds(86_400))
    #expect(plan.updates.isEmpty && !plan.ending.isBySystem && plan.ending.state.value == .seconds(-30))
    #expect(plan.ending.dismissalDate == plan.ending.date.addingTimeInterval(Self.fourHours))
    try expectTrue(plan, over, RoundedDisplay.secondsWithOvertime, on: timeline, at: now, using: &generator)
  }

  @Test func randomCountdownsAreNeverWrong() throws {
    var generator = testGenerator("LiveActivityPlanTests.randomCountdownsAreNeverWrong")
    for round in 0..<60 {
      let timeline = try randomTimeline(using: &generator)
      let now = timeline.anchorInstant + generator.duration(milliseconds: -100_000...100_000)
      let total = generator.duration(milliseconds: 1_000...60_000_000)
      var countdown = Countdown(end: now + total * Double.random(in: -0.1...1.2, using: &generator), total: total)
      if round % 5 == 0 { countdown = countdown.paused(at: now) }
      let started = now - generator.duration(milliseconds: 0...30_000_000)
      let updates = Int.random(in: 1...40, using: &generator)
      if round % 2 == 0 {
        let urgency: PhaseDisplay<Urgency> = .phases(.calm, [total * 0.5: .hurry, total * 0.1: .late])
        let plan = countdown.liveActivity(
          of: urgency, at: now, on: timeline, startedAt: started, maximumUpdates: updates)
        #expect(plan.updates.count <= updates)
        try expectTrue(plan, countdown, urgency, on: timeline, at: now, count: 500, using: &generator)
      } else {
        let plan = countdown.liveActivity(
          of: AdaptiveDisplay.coarse, at: now, on: timeline, startedAt: started, maximumUpdates: updates)
        #expect(plan.updates.count <= updates)
        try expectTrue(plan, countdown, AdaptiveDisplay.coarse, on: timeline, at: now, count: 500, using: &generator)
      }
    }
  }

  @Test func theContentStateRoundTripsThroughJSON() throws {
    let now = Date(timeIntervalSinceReferenceDate: 825_000_000.5)
    let stored = try StoredCountdown(state: .running(end: now.addingTimeInterval(5_400)), total: .seconds(7_200))
    let plan = try stored.liveActivity(of: PhaseDisplay<Urgency>.phases(.calm, [.seconds(600): .hurry]), at: now)
    let state = try #require(plan.updates.first?.state)
    #expect(state.timerInterval == now.addingTimeInterval(-1_800)...now.addingTimeInterval(5_400))
    let decoded = try JSONDecoder().decode(
      LiveActivityPlan<Urgency>.ContentState.self, from: JSONEncoder().encode(state))
    #expect(decoded == state)
    #expect(throws: WallClockTimelineError.self) {
      try stored.liveActivity(
        of: RoundedDisplay.minutes, at: now, startedAt: Date(timeIntervalSinceReferenceDate: .infinity))
    }
  }
}
