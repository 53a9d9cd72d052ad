import TestSupport
import CountdownCore
import Testing

@Suite struct CountdownTests {
  private let start = TestInstant.seconds(1_000)

  @Test func remainingIsComputedFromTheEnd() {
    let countdown = Countdown(end: start + .seconds(90), total: .seconds(90))
    #expect(countdown.remaining(at: start) == .seconds(90))
    #expect(countdown.remaining(at: start + .seconds(100)) == .seconds(-10))
    #expect(countdown.isFinished(at: start + .seconds(90)))
    #expect(!countdown.isFinished(at: start + .seconds(89)))
    #expect(countdown.progress(at: start + .seconds(45)) == 0.5)
    #expect(countdown.progress(at: start - .seconds(45)) == 1)
    #expect(countdown.progress(at: start + .seconds(500)) == 0)
    #expect(Countdown(end: start).progress(at: start) == nil)
    #expect(Countdown(end: start, total: .zero).progress(at: start) == nil)
  }

  @Test func pauseFreezesAndResumeContinuesWhereItPaused() {
    let countdown = Countdown(duration: .seconds(60), startingAt: start)
    let paused = countdown.paused(at: start + .seconds(20))
    #expect(paused.isPaused)
    #expect(paused.end == nil)
    #expect(paused.remaining(at: start + .seconds(20)) == .seconds(40))
    #expect(paused.remaining(at: start + .seconds(2_000)) == .seconds(40))
    #expect(paused.paused(at: start + .seconds(30)) == paused)
    let resumed = paused.resumed(at: start + .seconds(500))
    #expect(!resumed.isPaused)
    #expect(resumed.remaining(at: start + .seconds(510)) == .seconds(30))
    #expect(resumed.resumed(at: start + .seconds(600)) == resumed)
  }

  @Test func pausingForAnyGapChangesNothingButTheShift() {
    var generator = SeededGenerator(seed: 0xBA05E)
    for _ in 0..<500 {
      let countdown = Countdown(end: start + generator.duration(milliseconds: -100_000...100_000), total: .seconds(100))
      let pauseAt = start + generator.duration(milliseconds: 0...200_000)
      let gap = generator.duration(milliseconds: 0...10_000_000)
      let later = generator.duration(milliseconds: 0...200_000)
      let cycled = countdown.paused(at: pauseAt).resumed(at: pauseAt + gap)
      #expect(cycled.remaining(at: pauseAt + gap + later) == countdown.remaining(at: pauseAt + later))
      #expect(cycled.total == countdown.total)
    }
  }

  @Test func extendingIsAdditiveRunningAndPaused() {
    var generator = SeededGenerator(seed: 0xE97E)
    for _ in 0..<500 {
      let base = Countdown(end: start + generator.duration(milliseconds: 0...100_000))
      let countdown = Bool.random(using: &generator) ? base : base.paused(at: start + .seconds(3))
      let a = generator.duration(milliseconds: -50_000...50_000)
      let b = generator.duration(milliseconds: -50_000...50_000)
      #expect(countdown.extended(by: a).extended(by: b) == countdown.extended(by: a + b))
      let now = start + generator.duration(milliseconds: 0...100_000)
      #expect(countdown.extended(by: a).remaining(at: now) == countdown.remaining(at: now) + a)
    }
  }

  @Test func retargetRunningAndPaused() {
    let countdown = Countdown(end: start + .seconds(60), total: .seconds(60))
    #expect(countdown.retargeted(to: start + .seconds(120)).remaining(at: start) == .seconds(120))
    #expect(countdown.retargeted(to: start + .seconds(120)).total == .seconds(60))
    let paused = countdown.paused(at: start + .seconds(10))
    let moved = paused.retargeted(to: start + .seconds(30))
    #expect(moved.isPaused)
    #expect(moved.remaining(at: start + .seconds(999)) == .seconds(20))
    #expect(moved.resumed(at: start + .seconds(50)).remaining(at: start + .seconds(50)) == .seconds(20))
  }

  @Test func stopwatchCountsUp() {
    let stopwatch = Countdown.stopwatch(startedAt: start)
    #expect(stopwatch.elapsed(at: start + .milliseconds(6_500)) == .milliseconds(6_500))
    let snapshot = stopwatch.snapshot(at: start + .milliseconds(6_500), display: .elapsedSeconds)
    #expect(snapshot.value == .seconds(6))
    #expect(snapshot.progress == nil)
    let paused = stopwatch.paused(at: start + .seconds(10))
    #expect(paused.elapsed(at: start + .seconds(100)) == .seconds(10))
  }

  @Test func snapshotCarriesEverything() {
    let countdown = Countdown(end: start + .seconds(8), total: .seconds(8)).paused(at: start + .seconds(2))
    let snapshot = countdown.snapshot(at: start + .seconds(2), display: .seconds)
    #expect(
      snapshot
        == CountdownSnapshot(
          value: .seconds(6), remaining: .seconds(6), progress: 0.75,
          isPaused: true, isFinished: false, instant: start + .seconds(2)))
  }
}
