import CountdownCore
import TestSupport
import Testing

private enum Colour: Equatable, Sendable { case green, yellow, red }

/// `Countdown.changes(of:from:through:)` for every built-in display, checked against millisecond sampling.
@Suite struct ChangeScheduleTests {
  /// A running countdown with `left` (plus a random sub-millisecond phase) left at a random start,
  /// its schedule over `span` from there checked against sampling; returns the values in order.
  @discardableResult
  private func check<Display: CountdownDisplay>(
    _ display: Display,
    left: Duration,
    span: Duration,
    seedSalt: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Display.Value] {
    let seed = SeededGenerator.testSeed() ^ seedSalt
    print("ChangeScheduleTests seed \(seed) (salt \(seedSalt))")
    var generator = SeededGenerator(seed: seed)
    let start = TestInstant(generator.duration(milliseconds: -1_000_000...1_000_000))
    let phase = Duration(
      secondsComponent: 0, attosecondsComponent: Int64.random(in: 0..<1_000_000_000_000_000, using: &generator))
    let countdown = Countdown(end: start + left + phase, total: left)
    let schedule = expectScheduleMatchesSampling(
      countdown, display, from: start, through: start + span, sourceLocation: sourceLocation)
    return schedule.map(\.value)
  }

  @Test func seconds() {
    let values = check(RoundedDisplay.seconds, left: .seconds(7), span: .seconds(10), seedSalt: 1)
    #expect(values == (0...8).reversed().map { Duration.seconds($0) })
  }

  @Test func minutes() {
    let values = check(RoundedDisplay.minutes, left: .seconds(190), span: .seconds(240), seedSalt: 2)
    #expect(values == [.seconds(240), .seconds(180), .seconds(120), .seconds(60), .zero])
  }

  @Test func overtime() {
    let values = check(RoundedDisplay.secondsWithOvertime, left: .seconds(3), span: .seconds(8), seedSalt: 3)
    #expect(values == (-4...4).reversed().map { Duration.seconds($0) })
  }

  @Test func elapsed() {
    // A stopwatch is a countdown whose end is its start: "left" is minus the time already elapsed.
    let values = check(RoundedDisplay.elapsedSeconds, left: .seconds(-2), span: .seconds(5), seedSalt: 4)
    #expect(values == (1...6).map { Duration.seconds($0) })
    check(RoundedDisplay.elapsedMinutes, left: .seconds(-50), span: .seconds(200), seedSalt: 5)
    check(RoundedDisplay.rounded(to: .milliseconds(250)), left: .seconds(2), span: .seconds(3), seedSalt: 6)
  }

  @Test func adaptive() {
    // Whole minutes above an hour, then whole seconds: 1:01:30 left, 150 s observed.
    let values = check(AdaptiveDisplay.adaptive, left: .seconds(3_690), span: .seconds(150), seedSalt: 7)
    #expect(values.prefix(3) == [.seconds(3_720), .seconds(3_660), .seconds(3_600)])
    #expect(values.count == 3 + 59)
  }

  @Test func coarse() {
    // The marketplace widget across both of its tiers: 2 hours, 1.5 hours, 60 min, 59 min, …
    let values = check(AdaptiveDisplay.coarse, left: .seconds(5_460), span: .seconds(1_925), seedSalt: 8)
    #expect(values.prefix(4) == [.seconds(7_200), .seconds(5_400), .seconds(3_600), .seconds(3_540)])
  }

  @Test func customAdaptiveTiers() {
    let display = AdaptiveDisplay(
      [.init(above: .seconds(100), unit: .seconds(60)), .init(above: .milliseconds(10_500), unit: .seconds(7))],
      finest: .milliseconds(400))
    check(display, left: .seconds(140), span: .seconds(145), seedSalt: 9)
  }

  @Test func phases() {
    let display: PhaseDisplay<Colour> = .phases(.green, [.seconds(10): .red, .seconds(60): .yellow])
    let values = check(display, left: .seconds(65), span: .seconds(70), seedSalt: 10)
    #expect(values == [.green, .yellow, .red])
    let eightStates = PhaseDisplay(initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
    #expect(check(eightStates, left: .seconds(8), span: .seconds(9), seedSalt: 11) == Array(0...7))
  }

  @Test func progress() {
    let values = check(
      ProgressDisplay(steps: 450, total: .seconds(8)), left: .seconds(8), span: .seconds(9), seedSalt: 12)
    #expect(values.count == 451)
    check(ProgressDisplay(steps: 7, total: .seconds(3)), left: .seconds(2), span: .seconds(3), seedSalt: 13)
  }

  @Test func combined() {
    let display = RoundedDisplay.seconds.combined(
      with: PhaseDisplay<Colour>.phases(.green, [.milliseconds(2_500): .red]))
    let values = check(display, left: .seconds(5), span: .seconds(6), seedSalt: 14)
    #expect(values.map(\.second) == [.green, .green, .green, .green, .red, .red, .red, .red])
  }

  @Test func mapped() {
    let display = RoundedDisplay.seconds.map { $0 > .seconds(3) ? "plenty" : "hurry" }
    #expect(check(display, left: .seconds(8), span: .seconds(10), seedSalt: 15) == ["plenty", "hurry"])
    // A transform that makes every value equal: one element, whatever the base display does.
    let constant = RoundedDisplay.seconds.map { _ in 0 }
    #expect(check(constant, left: .seconds(5), span: .seconds(7), seedSalt: 16) == [0])
  }

  @Test func pausedCountdownHasOneElement() {
    let start = TestInstant(.seconds(100))
    let paused = Countdown(end: start + .seconds(30), total: .seconds(60)).paused(at: start)
    for display in [RoundedDisplay.seconds, .secondsWithOvertime, .elapsedSeconds, .minutes] {
      let schedule = Array(paused.changes(of: display, from: start + .seconds(5), through: start + .seconds(3_600)))
      #expect(schedule == [CountdownChange(at: start + .seconds(5), value: display.value(remaining: .seconds(30)))])
    }
    _ = expectScheduleMatchesSampling(
      paused, ProgressDisplay(steps: 100, total: .seconds(60)), from: start, through: start + .seconds(5))
  }

  @Test func finishedCountdownWithoutOvertimeHasOneElement() {
    let start = TestInstant(.seconds(100))
    let finished = Countdown(end: start - .seconds(3))
    #expect(Array(finished.changes(of: .seconds, from: start, through: start + .seconds(60))).map(\.value) == [.zero])
  }

  @Test func rangeEdges() {
    let start = TestInstant(.seconds(10))
    let countdown = Countdown(end: start + .seconds(5))
    // A range that ends before it starts is empty; a one-instant range holds its start.
    #expect(Array(countdown.changes(of: .seconds, from: start, through: start - .nanoseconds(1))).isEmpty)
    #expect(Array(countdown.changes(of: .seconds, from: start, through: start)).map(\.value) == [.seconds(5)])
    // A change exactly at the end of the range is in it.
    let changes = Array(countdown.changes(of: .seconds, from: start, through: start + .seconds(1)))
    #expect(changes.map(\.at) == [start, start + .seconds(1)])
    // Lazy: taking a prefix of a schedule over a century computes only that prefix.
    let century = countdown.changes(of: .secondsWithOvertime, from: start, through: start + .seconds(3_155_760_000))
    #expect(Array(century.prefix(3)).map(\.value) == [.seconds(5), .seconds(4), .seconds(3)])
  }
}
