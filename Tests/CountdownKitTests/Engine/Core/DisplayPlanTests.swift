import CountdownKit
import Testing
import TestSupport

/// Every built-in display's integer plan gives exactly what the display gives, on the whole-nanosecond
/// remaining times the engine works with: the value (as the engine shows it) and the next change.
@Suite struct DisplayPlanTests {
  /// A display, its plan, and its values as strings so that they can be compared whatever their type.
  struct Case: CustomStringConvertible, Sendable {
    let description: String
    let plan: DisplayPlan
    let value: @Sendable (Tick) -> String
    let planValue: @Sendable (Tick) -> String
    let nextChange: @Sendable (Tick) -> Tick?

    init<Display: CountdownDisplay>(_ display: Display, _ description: String) {
      self.description = description
      guard let plan = DisplayPlan.make(for: display) else {
        preconditionFailure("\(description) has no plan")
      }
      self.plan = plan
      value = { DisplayPlanTests.exact(display.value(remaining: Ticks.duration($0))) }
      let valueIsTicks = DisplayPlan.valueIsTicks(plan, for: Display.Value.self)
      planValue = { remaining in
        let change = Effects.Change(
          sink: 0, displayClass: 1, paused: false, finished: remaining <= 0, value: plan.value(remaining: remaining),
          remaining: remaining, total: -1)
        let snapshot = Snapshots.snapshot(
          of: change, at: ContinuousClock.Instant.now, display: display, valueIsTicks: valueIsTicks)
        return DisplayPlanTests.exact(snapshot.value)
      }
      nextChange = { display.nextChange(after: Ticks.duration($0)).map(Ticks.floor) }
    }
  }

  /// A value as text, exact for durations (their description is a rounded `Double`).
  static func exact(_ value: some Any) -> String {
    guard let duration = value as? Duration else { return "\(value)" }
    return "\(duration.components)"
  }

  static var cases: [Case] {
    [
      Case(RoundedDisplay.seconds, "seconds"),
      Case(RoundedDisplay.minutes, "minutes"),
      Case(RoundedDisplay.secondsWithOvertime, "overtime"),
      Case(RoundedDisplay.elapsedSeconds, "elapsed seconds"),
      Case(RoundedDisplay.elapsedMinutes, "elapsed minutes"),
      Case(RoundedDisplay.rounded(to: .milliseconds(250)), "quarters"),
      Case(RoundedDisplay(unit: .nanoseconds(7), reading: .remaining, showsOvertime: true), "7 ns, overtime"),
      Case(AdaptiveDisplay.adaptive, "adaptive"),
      Case(AdaptiveDisplay.coarse, "coarse"),
      Case(
        AdaptiveDisplay.adaptive(
          [.init(above: .seconds(86_400), unit: .seconds(3_600)), .init(above: .seconds(90), unit: .seconds(7))],
          finest: .milliseconds(300)), "custom tiers"),
      Case(ProgressDisplay.progress(steps: 415, total: .seconds(8)), "ring"),
      Case(ProgressDisplay.progress(steps: 7, total: .nanoseconds(1_000_003)), "odd ring"),
      Case(PhaseDisplay.phases("green", [.seconds(10): "yellow", .seconds(3): "red", .seconds(1): "red"]), "phases"),
      Case(PhaseDisplay.phases(0, [.nanoseconds(5): 1, .zero: 2, .seconds(-1): 0]), "phases through zero"),
    ]
  }

  /// Remaining times around the places where displays change, and random ones at every scale.
  static func remainingTimes(using rng: inout SeededGenerator) -> [Tick] {
    var times: [Tick] = [0, 1, -1, Ticks.max, Ticks.min, Ticks.max - 1, Ticks.min + 1]
    for boundary: Int64 in [1_000_000_000, 60_000_000_000, 3_600_000_000_000, 86_400_000_000_000, 250_000_000] {
      for multiple in -3...3 { times += [-1, 0, 1].map { boundary * Int64(multiple) + $0 } }
    }
    for _ in 0..<3_000 {
      let scale = Int64(1) << Int64.random(in: 0...62, using: &rng)
      times.append(Int64.random(in: -scale...scale, using: &rng))
    }
    return times
  }

  @Test(arguments: cases)
  func thePlanShowsWhatTheDisplayShows(_ example: Case) {
    let seed = SeededGenerator.testSeed()
    var rng = SeededGenerator(seed: seed)
    for remaining in Self.remainingTimes(using: &rng) {
      let context = "\(example) at \(remaining) ns, seed \(seed)"
      #expect(example.planValue(remaining) == example.value(remaining), "\(context)")
      guard remaining > Ticks.min + 1_000_000_000_000, remaining < Ticks.max - 1_000_000_000_000 else { continue }
      let next = example.plan.nextChange(after: remaining)
      #expect(next == example.nextChange(remaining), "next change, \(context)")
      if let next {
        #expect(next < remaining, "\(context)")
        #expect(example.value(next) != example.value(remaining), "\(context)")
        #expect(example.value(next + 1) == example.value(remaining), "\(context)")
      }
    }
  }

  @Test func displaysWithoutAPlanTakeTheGenericPath() {
    #expect(DisplayPlan.make(for: RoundedDisplay.seconds.map { $0 > .seconds(5) }) == nil)
    #expect(DisplayPlan.make(for: RoundedDisplay.seconds.combined(with: RoundedDisplay.minutes)) == nil)
    #expect(DisplayPlan.make(for: RoundedDisplay(unit: Duration(attoseconds: 1_500))) == nil, "finer than a tick")
    #expect(DisplayPlan.make(for: StuckOnWholeSecondsDisplay()) == nil)
  }
}
