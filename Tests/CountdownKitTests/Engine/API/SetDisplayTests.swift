import CountdownKit
import CountdownTesting
import Testing

/// `CountdownHandle.setDisplay(_:)` keeps the countdown and its completion, and changes what its
/// subscriber is shown.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct SetDisplayTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  @Test func aCellSwitchingFromMinutesToSecondsKeepsItsCountdownAndItsCompletion() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<String, Duration>()
    let handle = engine.add(
      Countdown(duration: .seconds(150), startingAt: clock.now), display: .minutes,
      onChange: { recorder.onChange("cell")($0.value) }, onFinish: recorder.onFinish("cell"))
    engine._serveDue()
    clock.advance(by: .seconds(85))
    engine._serveDue()
    #expect(recorder.updates["cell"] == [.seconds(180), .seconds(120)])
    try handle.setDisplay(RoundedDisplay.seconds)
    engine._serveDue()
    #expect(recorder.last("cell") == .seconds(65), "the new display's value, at once")
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(recorder.last("cell") == .seconds(64))
    clock.advance(by: .seconds(64))
    engine._serveDue()
    #expect(recorder.last("cell") == .zero && recorder.finishes["cell"] == 1)
    #expect(recorder.updates["cell"]?.count == 5)
  }

  @Test func snapshotsOfTheOldDisplayStillOnTheirWayAreDropped() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var seen: [Duration] = []
    let handle = engine.add(Countdown(duration: .seconds(150), startingAt: clock.now), display: .minutes) {
      seen.append($0.value)
    }
    // Not delivered yet: the first minutes value is on its way when the display changes.
    try handle.setDisplay(RoundedDisplay.seconds)
    engine._serveDue()
    #expect(seen == [.seconds(150)])
  }

  @Test func aDisplayOfAnotherValueTypeOrACountdownThatShowsNothingIsAnError() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var seen: [Duration] = []
    let handle = engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) {
      seen.append($0.value)
    }
    #expect(throws: CountdownHandleError.valueTypeMismatch(receives: "Duration", shows: "Double")) {
      try handle.setDisplay(ProgressDisplay.progress(steps: 4, total: .seconds(10)))
    }
    let unbound = engine.add(Countdown(duration: .seconds(10), startingAt: clock.now)) {}
    #expect(throws: CountdownHandleError.showsNothing) { try unbound.setDisplay(RoundedDisplay.seconds) }
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(seen == [.seconds(10), .seconds(9)], "the failed change left the countdown as it was")
    handle.cancel()
    #expect(throws: Never.self) { try handle.setDisplay(RoundedDisplay.minutes) }
  }
}
