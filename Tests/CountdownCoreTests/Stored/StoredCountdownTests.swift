import CountdownCore
import Foundation
import TestSupport
import Testing

/// `StoredCountdown` on the wall clock, and between countdowns and their stored form.
@Suite struct StoredCountdownTests {
  private let now = Date(timeIntervalSince1970: 1_800_000_000.125)

  @Test func wallClockOperationsAreExact() throws {
    let stored = try StoredCountdown(end: now.addingTimeInterval(90), total: .seconds(120))
    #expect(try stored.remaining(at: now) == .seconds(90))
    #expect(try stored.remaining(at: now.addingTimeInterval(100)) == .seconds(-10))
    #expect(try stored.isFinished(at: now.addingTimeInterval(90)))
    let paused = try stored.paused(at: now.addingTimeInterval(30))
    #expect(paused.isPaused && paused.end == nil)
    #expect(try paused.remaining(at: now.addingTimeInterval(3_600)) == .seconds(60))
    #expect(try paused.paused(at: now.addingTimeInterval(60)) == paused)
    let resumed = try paused.resumed(at: now.addingTimeInterval(600))
    #expect(resumed.end == now.addingTimeInterval(660))
    #expect(try resumed.resumed(at: now) == resumed)
    #expect(try paused.extended(by: .seconds(15)).remaining(at: now) == .seconds(75))
    #expect(try resumed.extended(by: .seconds(-60)).end == now.addingTimeInterval(600))
    // A paused countdown retargeted keeps counting from its pause: 30 s in, a new end 100 s out.
    #expect(try paused.retargeted(to: now.addingTimeInterval(100)).remaining(at: now) == .seconds(70))
    #expect(resumed.total == .seconds(120))
  }

  @Test func aFinishedCountdownStaysFinished() throws {
    let finished = try StoredCountdown(state: .finished(end: now), total: .seconds(60))
    #expect(finished.isFinished && finished.end == now)
    // Even where the wall clock reads a date before the end (it was set back): no time left.
    #expect(try finished.remaining(at: now.addingTimeInterval(-600)) == .zero)
    #expect(try finished.remaining(at: now.addingTimeInterval(5)) == .seconds(-5))
    #expect(try finished.isFinished(at: now.addingTimeInterval(-600)))
    #expect(try finished.paused(at: now.addingTimeInterval(-600)).remaining(at: now) == .zero)
    #expect(try finished.resumed(at: now) == finished)
    // Given a new end, it runs again.
    let extended = try finished.retargeted(to: now.addingTimeInterval(300))
    #expect(!extended.isFinished && extended.end == now.addingTimeInterval(300))
    // Its schedule is overtime only.
    let changes = try finished.changes(
      of: RoundedDisplay.secondsWithOvertime, from: now.addingTimeInterval(-10), through: now.addingTimeInterval(-8),
      limit: 10)
    #expect(changes.map(\.value) == [.zero, .seconds(-1), .seconds(-2)])
    // And restored, it is finished at once: at its end date or `now`, whichever is earlier.
    let timeline = try WallClockTimeline(anchorDate: now.addingTimeInterval(-600), anchorInstant: TestInstant.zero)
    let restored = finished.restored(at: .zero, on: timeline)
    #expect(restored.isFinished(at: .zero) && restored.remaining(at: .zero) == .zero)
  }

  @Test func badArgumentsThrow() throws {
    let stored = try StoredCountdown(end: now, total: nil)
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    #expect(throws: StoredCountdownError.nonFiniteDate(.date)) { try stored.paused(at: nan) }
    #expect(throws: StoredCountdownError.nonFiniteDate(.end)) { try StoredCountdown(end: nan) }
    #expect(throws: StoredCountdownError.negativeTotal(.seconds(-1))) {
      try StoredCountdown(end: now, total: .seconds(-1))
    }
    let farAway = Date(timeIntervalSinceReferenceDate: 4e12)
    #expect(throws: StoredCountdownError.dateOutOfRange(.date, farAway)) { try stored.remaining(at: farAway) }
    // Resuming a countdown paused with 150,000 years left, 90,000 years from now: an end out of range.
    let long = try StoredCountdown(
      state: .paused(remaining: .seconds(150_000 * 31_557_600), since: now), total: nil)
    #expect(throws: StoredCountdownError.self) {
      try long.resumed(at: Date(timeIntervalSinceReferenceDate: 90_000 * 31_557_600))
    }
    #expect(throws: StoredCountdownError.durationOutOfRange(.remaining, .seconds(Int64.max))) {
      try stored.extended(by: .seconds(Int64.max))
    }
  }

  @Test func storedAndRestoredThroughTimelines() throws {
    let seed = SeededGenerator.testSeed()
    print("StoredCountdownTests.storedAndRestoredThroughTimelines seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      let offset = generator.duration(milliseconds: -600_000...600_000)
      let before = try WallClockTimeline(
        anchorDate: now, anchorInstant: TestInstant(generator.duration(milliseconds: 0...1_000_000_000)),
        referenceOffset: offset)
      let storedAt = before.anchorInstant + generator.duration(milliseconds: 0...100_000)
      let countdown = Countdown(
        end: storedAt + generator.duration(milliseconds: -10_000...10_000_000), total: .seconds(7_200))
      let paused = Bool.random(using: &generator)
      let stored = try (paused ? countdown.paused(at: storedAt) : countdown).stored(at: storedAt, on: before)
      // Another process, with its own monotonic origin, later by `gap` on both clocks.
      let gap = generator.duration(milliseconds: 0...100_000_000)
      let after = try WallClockTimeline(
        anchorDate: now.addingTimeInterval(Double(gap.components.seconds)),
        anchorInstant: TestInstant(generator.duration(milliseconds: -1_000...1_000)), referenceOffset: offset)
      let relaunch = after.anchorInstant
      let restored = stored.restored(at: relaunch, on: after)
      // The wall clock moved on by `gap` (whole seconds) since the first anchor, part of it before the store.
      let wallTimeSinceStored = .seconds(gap.components.seconds) - before.anchorInstant.duration(to: storedAt)
      let expected =
        paused ? countdown.remaining(at: storedAt) : countdown.remaining(at: storedAt) - wallTimeSinceStored
      #expect(restored.isPaused == paused)
      #expect(stored.isFinished == (!paused && countdown.isFinished(at: storedAt)))
      #expect(restored.remaining(at: relaunch).isClose(to: expected), "paused \(paused), gap \(gap)")
      #expect(restored.total == .seconds(7_200))
    }
  }

  @Test func anInstantTooFarFromTheAnchorIsAnError() throws {
    let timeline = try WallClockTimeline(anchorDate: now, anchorInstant: TestInstant.zero)
    let far = Countdown(end: TestInstant(.seconds(Int64(4e12))))
    #expect(throws: StoredCountdownError.self) { try far.stored(at: .zero, on: timeline) }
  }
}
