import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// `CountdownModel`: one observation per visible change, none per tick, none for what a view does not
/// read, and none after the model is released.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct CountdownModelTests {
  @Test func publishesOncePerVisibleChangeNeverPerTick() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let countdown = Countdown(duration: .milliseconds(10_500), startingAt: clock.now)
    let model = CountdownModel(engine: engine, countdown: countdown, display: .seconds)
    #expect(model.value == .seconds(11), "the first value is there at once")
    let perStep = ObservationCounter()
    let everyValue = ObservationCounter()
    trackEveryPublication(everyValue) { _ = model.value }
    var observed = 0
    var expected = 0
    var shown = model.value
    // 12 s in steps of 10 ms: 1,200 ticks, 11 visible changes (10 s, 9 s, …, 0 s).
    for _ in 0..<1_200 {
      trackOnce(perStep) {
        _ = model.snapshot
        _ = model.value
        _ = model.progress
        _ = model.isFinished
        _ = model.isPaused
      }
      clock.advance(by: .milliseconds(10))
      engine._serveDue()
      if perStep.take() > 0 { observed += 1 }
      if model.value != shown { expected += 1 }
      shown = model.value
      #expect(model.value == countdown.snapshot(at: clock.now, display: .seconds).value)
    }
    #expect(expected == 11)
    #expect(observed == expected)
    #expect(everyValue.value == 11, "one publication of value per change of value")
    #expect(model.isFinished && model.value == .zero)
  }

  @Test func deliveriesThatShowTheSameArePublishedNever() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = CountdownModel(
      engine: engine, countdown: Countdown(duration: .milliseconds(10_500), startingAt: clock.now), display: .seconds)
    let counter = ObservationCounter()
    trackEveryPublication(counter) { _ = model.snapshot }
    // The engine's first snapshot comes later than the model's own, with the same value.
    clock.advance(by: .milliseconds(1))
    engine._serveDue()
    // A change of the end that leaves the value as it is.
    model.handle.extend(by: .milliseconds(100))
    engine._serveDue()
    #expect(counter.value == 0)
    #expect(model.snapshot?.remaining == .milliseconds(10_500))
    // Handed such a snapshot directly, the model publishes nothing either; a new value, once.
    let later = Countdown(duration: .milliseconds(10_500), startingAt: clock.now)
    model._receive(later.snapshot(at: clock.now.advanced(by: .milliseconds(200)), display: .seconds))
    #expect(counter.value == 0)
    model._receive(later.snapshot(at: clock.now.advanced(by: .milliseconds(600)), display: .seconds))
    #expect(counter.value == 1 && model.value == .seconds(10))
  }

  @Test func aViewReadingOnlyThePausedFlagIsNotToldOfValueChanges() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = CountdownModel(
      engine: engine, countdown: Countdown(duration: .seconds(30), startingAt: clock.now), display: .seconds)
    let paused = ObservationCounter()
    trackEveryPublication(paused) { _ = model.isPaused }
    let values = ObservationCounter()
    trackEveryPublication(values) { _ = model.value }
    for _ in 0..<5 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(paused.value == 0 && values.value == 5)
    model.handle.pause()
    engine._serveDue()
    #expect(model.isPaused && paused.value == 1 && values.value == 5, "pausing changes the flag, not the value")
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(paused.value == 1 && values.value == 5, "nothing changes while paused")
    model.handle.resume()
    engine._serveDue()
    #expect(!model.isPaused && paused.value == 2)
    model.handle.extend(by: .seconds(60))
    engine._serveDue()
    #expect(model.value == .seconds(85) && values.value == 6)
  }

  @Test func aReleasedModelCancelsItsCountdownAndPublishesNothing() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let counter = ObservationCounter()
    weak var released: CountdownModel<RoundedDisplay, ManualClock>?
    var finished = 0
    do {
      let model = CountdownModel(
        engine: engine, countdown: Countdown(duration: .seconds(3), startingAt: clock.now), display: .seconds,
        onFinish: { finished += 1 })
      released = model
      trackOnce(counter) { _ = model.value }
      #expect(engine.count == 1)
    }
    #expect(released == nil, "nothing keeps the model alive")
    #expect(engine.count == 0, "its countdown is cancelled")
    for _ in 0..<10 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(counter.value == 0 && finished == 0)
  }

  @Test func aModelOfADateFollowsTheWallClock() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = try CountdownModel(
      engine: engine, until: clock.currentDate.addingTimeInterval(7_200), total: .seconds(7_200), display: .coarse)
    #expect(model.value == .seconds(7_200) && model.progress == 1)
    clock.jumpWallClock(by: .seconds(1_800))
    engine.wallClockDidChange()
    engine._serveDue()
    #expect(model.value == .seconds(5_400), "a date target moves with the wall clock")
    #expect(throws: WallClockTimelineError.self) {
      try CountdownModel(engine: engine, until: Date(timeIntervalSince1970: .nan), display: .coarse)
    }
  }
}
