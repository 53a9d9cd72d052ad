import TestSupport
import CountdownCore
import Testing

private enum Colour: Equatable, Sendable { case green, yellow, red }

@Suite struct RoundedDisplayTests {
  @Test func secondsRoundUpAndReadZeroOnlyWhenFinished() {
    let display: RoundedDisplay = .seconds
    #expect(display.value(remaining: .milliseconds(6_500)) == .seconds(7))
    #expect(display.nextChange(after: .milliseconds(6_500)) == .seconds(6))
    #expect(display.value(remaining: .seconds(6)) == .seconds(6))
    #expect(display.value(remaining: .nanoseconds(1)) == .seconds(1))
    #expect(display.value(remaining: .zero) == .zero)
    #expect(display.nextChange(after: .nanoseconds(1)) == .zero)
    #expect(display.nextChange(after: .zero) == nil)
    #expect(display.value(remaining: .seconds(-5)) == .zero)
  }

  @Test func overtimeCountsOnBelowZero() {
    let display: RoundedDisplay = .secondsWithOvertime
    #expect(display.value(remaining: .milliseconds(-500)) == .zero)
    #expect(display.nextChange(after: .zero) == .seconds(-1))
    #expect(display.value(remaining: .milliseconds(-1_500)) == .seconds(-1))
  }

  @Test func elapsedRoundsDown() {
    let display: RoundedDisplay = .elapsedSeconds
    // A stopwatch 6.5 s after its start has remaining −6.5 s.
    #expect(display.value(remaining: .milliseconds(-6_500)) == .seconds(6))
    #expect(display.nextChange(after: .milliseconds(-6_500)) == .seconds(-7))
    #expect(display.value(remaining: .seconds(3)) == .zero)
    #expect(display.nextChange(after: .seconds(3)) == .seconds(-1))
  }

  @Test(arguments: [
    RoundedDisplay.seconds, .minutes, .secondsWithOvertime, .elapsedSeconds, .elapsedMinutes,
    .rounded(to: .milliseconds(250)), .rounded(to: .milliseconds(333), reading: .elapsed),
  ])
  func contractHoldsForRandomRemainingTimes(display: RoundedDisplay) {
    let seed: UInt64 = 0x5EC0_0001
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<400 {
      let remaining = generator.duration(milliseconds: -7_200_000...7_200_000)
      expectContract(display, at: remaining, using: &generator)
    }
    expectContract(display, at: .zero, using: &generator)
    expectContract(display, at: .seconds(60), using: &generator)
  }

  @Test func walkMatchesScan() {
    expectWalkMatchesScan(RoundedDisplay.seconds, from: .milliseconds(10_300), to: .seconds(-2), step: .milliseconds(1))
    expectWalkMatchesScan(
      RoundedDisplay.secondsWithOvertime, from: .milliseconds(3_300), to: .seconds(-3), step: .milliseconds(1))
    expectWalkMatchesScan(
      RoundedDisplay.elapsedSeconds, from: .milliseconds(1_300), to: .seconds(-5), step: .milliseconds(1))
  }
}

@Suite struct AdaptiveDisplayTests {
  @Test func minutesAboveAnHourSecondsBelow() {
    let display: AdaptiveDisplay = .adaptive
    #expect(display.value(remaining: .seconds(3_600 + 30)) == .seconds(3_660))
    #expect(display.nextChange(after: .seconds(3_600 + 30)) == .seconds(3_600))
    #expect(display.value(remaining: .seconds(3_600)) == .seconds(3_600))
    #expect(display.nextChange(after: .seconds(3_600)) == .seconds(3_599))
    #expect(display.value(remaining: .seconds(7_200 + 1)) == .seconds(7_260))
    #expect(display.nextChange(after: .seconds(7_200 + 1)) == .seconds(7_200))
  }

  @Test func coarseReadsHalfHoursThenMinutes() {
    let display: AdaptiveDisplay = .coarse
    #expect(display.value(remaining: .seconds(3_601)) == .seconds(5_400))
    #expect(display.value(remaining: .seconds(5_401)) == .seconds(7_200))
    #expect(display.value(remaining: .seconds(3_600)) == .seconds(3_600))
    #expect(display.value(remaining: .seconds(2_699)) == .seconds(2_700))
    #expect(display.nextChange(after: .seconds(5_000)) == .seconds(3_600))
  }

  @Test func thresholdNotOnTheFinerGridStillChangesAtTheThreshold() {
    // Tiers whose thresholds are not multiples of the finer unit.
    let display = AdaptiveDisplay(
      [.init(above: .seconds(100), unit: .seconds(60)), .init(above: .milliseconds(10_500), unit: .seconds(7))],
      finest: .milliseconds(400))
    var generator = SeededGenerator(seed: 0xADA7_0002)
    for _ in 0..<600 {
      expectContract(display, at: generator.duration(milliseconds: -1_000...400_000), using: &generator)
    }
    expectWalkMatchesScan(display, from: .seconds(400), to: .seconds(-1), step: .milliseconds(100))
  }

  @Test(arguments: [AdaptiveDisplay.adaptive, .coarse])
  func contractHolds(display: AdaptiveDisplay) {
    var generator = SeededGenerator(seed: 0xADA7_0001)
    for _ in 0..<600 {
      expectContract(display, at: generator.duration(milliseconds: -60_000...3 * 86_400_000), using: &generator)
    }
    expectWalkMatchesScan(display, from: .seconds(3 * 3_600 + 17), to: .seconds(-2), step: .milliseconds(500))
  }
}

@Suite struct PhaseDisplayTests {
  private let display: PhaseDisplay<Colour> = .phases(.green, [.seconds(10): .red, .seconds(60): .yellow])

  @Test func phasesStartWhenTheirThresholdIsReached() {
    #expect(display.value(remaining: .milliseconds(60_001)) == .green)
    #expect(display.value(remaining: .seconds(60)) == .yellow)
    #expect(display.value(remaining: .seconds(10)) == .red)
    #expect(display.value(remaining: .seconds(-10)) == .red)
    #expect(display.nextChange(after: .seconds(100)) == .seconds(60))
    #expect(display.nextChange(after: .seconds(60)) == .seconds(10))
    #expect(display.nextChange(after: .seconds(10)) == nil)
  }

  @Test func equalNeighbouringPhasesAreNotChanges() {
    let display: PhaseDisplay<Colour> = .phases(.green, [.seconds(30): .green, .seconds(20): .red, .seconds(10): .red])
    #expect(display.nextChange(after: .seconds(40)) == .seconds(20))
    #expect(display.nextChange(after: .seconds(20)) == nil)
  }

  @Test func eightStateCardTimer() {
    let display = PhaseDisplay(initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
    var generator = SeededGenerator(seed: 0xCA4D)
    for _ in 0..<300 {
      expectContract(display, at: generator.duration(milliseconds: -2_000...10_000), using: &generator)
    }
    expectWalkMatchesScan(display, from: .seconds(9), to: .seconds(-1), step: .milliseconds(10))
  }

  @Test func contractHolds() {
    var generator = SeededGenerator(seed: 0x9A5E)
    for _ in 0..<300 {
      expectContract(display, at: generator.duration(milliseconds: -5_000...120_000), using: &generator)
    }
  }
}

@Suite struct ProgressDisplayTests {
  @Test func stepsRoundUpFromFullToEmpty() {
    let display: ProgressDisplay = .progress(steps: 4, total: .seconds(8))
    #expect(display.value(remaining: .seconds(8)) == 1)
    #expect(display.value(remaining: .seconds(20)) == 1)
    #expect(display.value(remaining: .seconds(7)) == 1)
    #expect(display.value(remaining: .seconds(6)) == 0.75)
    #expect(display.value(remaining: .nanoseconds(1)) == 0.25)
    #expect(display.value(remaining: .zero) == 0)
    #expect(display.nextChange(after: .seconds(7)) == .seconds(6))
    #expect(display.nextChange(after: .seconds(20)) == .seconds(6))
    #expect(display.nextChange(after: .zero) == nil)
  }

  @Test(arguments: [
    (450, Duration.seconds(8)), (3, .milliseconds(1_000)), (451, .seconds(7_200)), (7, .nanoseconds(13)),
  ])
  func contractHolds(steps: Int, total: Duration) {
    let display = ProgressDisplay(steps: steps, total: total)
    var generator = SeededGenerator(seed: 0x9205 &+ UInt64(steps))
    let totalMilliseconds = Int64(total.components.seconds * 1_000)
    for _ in 0..<400 {
      let remaining = Duration(
        attosecondCount: Int128(UInt64.random(in: 0...UInt64(max(totalMilliseconds, 1) * 1_100_000), using: &generator))
          * 1_000_000_000)
      expectContract(display, at: remaining, using: &generator)
    }
  }

  @Test func walkVisitsEveryStep() {
    let display = ProgressDisplay(steps: 450, total: .seconds(8))
    var count = 0
    var position = Duration.seconds(8)
    while let next = display.nextChange(after: position) {
      count += 1
      position = next
    }
    #expect(count == 450)
    expectWalkMatchesScan(display, from: .seconds(8), to: .zero, step: .milliseconds(1))
  }
}

@Suite struct CompositionTests {
  @Test func combinedChangesWhenEitherPartChanges() {
    let display = RoundedDisplay.minutes.combined(
      with: PhaseDisplay<Colour>.phases(.green, [.milliseconds(90_500): .red]))
    #expect(display.nextChange(after: .seconds(100)) == .milliseconds(90_500))
    #expect(display.nextChange(after: .milliseconds(90_500)) == .seconds(60))
    #expect(display.value(remaining: .seconds(100)) == .init(first: .seconds(120), second: .green))
    var generator = SeededGenerator(seed: 0xC0B1)
    for _ in 0..<300 {
      expectContract(display, at: generator.duration(milliseconds: -10_000...400_000), using: &generator)
    }
  }

  @Test func mappedSkipsChangesThatMapToTheSameValue() {
    let display = RoundedDisplay.seconds.map { $0 > .seconds(10) ? "plenty" : "hurry" }
    #expect(display.nextChange(after: .seconds(30)) == .seconds(10))
    #expect(display.nextChange(after: .seconds(10)) == nil)
    var generator = SeededGenerator(seed: 0x3A9)
    for _ in 0..<200 {
      expectContract(display, at: generator.duration(milliseconds: -1_000...40_000), using: &generator)
    }
  }

  @Test func mappedGivesUpOnAnEndlessConstantMap() {
    // Overtime never stops changing; a constant map must not loop forever.
    let display = RoundedDisplay.secondsWithOvertime.map { _ in 0 }
    let next = display.nextChange(after: .zero)
    #expect(next == .seconds(-Int64(MappedDisplay<RoundedDisplay, Int>.maximumSkippedChanges)))
  }
}
