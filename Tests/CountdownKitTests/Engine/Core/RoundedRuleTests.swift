import CountdownKit
import Testing
import TestSupport

/// The engine's one rounding rule (`RoundedRule`) gives what ``RoundedDisplay`` gives, on seeded random
/// whole-nanosecond remaining times and units, in each of the forms the engine's paths use: the plan's
/// value and next change, the serving loop's step, and a phase group's value at its serve.
@Suite struct RoundedRuleTests {
  /// Units in ticks: the built-in ones, odd ones, and random ones at every scale.
  static func units(using rng: inout SeededGenerator) -> [Tick] {
    var units: [Tick] = [1, 7, 1_000_000, 250_000_000, 1_000_000_000, 60_000_000_000, 3_600_000_000_000]
    for _ in 0..<40 {
      units.append(Tick.random(in: 1...(Tick(1) << Tick.random(in: 1...50, using: &rng)), using: &rng))
    }
    return units
  }

  /// Remaining times on and around multiples of `unit`, and random ones at every scale.
  static func remainingTimes(unit: Tick, using rng: inout SeededGenerator) -> [Tick] {
    var times: [Tick] = [0, 1, -1]
    for multiple in [-3, -2, -1, 1, 2, 3, 1_000, Int64.random(in: -1_000_000...1_000_000, using: &rng)] {
      let (boundary, overflow) = unit.multipliedReportingOverflow(by: Int64(multiple))
      if !overflow { times += [boundary - 1, boundary, boundary + 1] }
    }
    for _ in 0..<200 {
      let scale = Tick(1) << Tick.random(in: 0...55, using: &rng)
      times.append(Tick.random(in: -scale...scale, using: &rng))
    }
    return times
  }

  @Test func theRuleShowsWhatRoundedDisplayShows() {
    let seed = SeededGenerator.testSeed()
    var rng = SeededGenerator(seed: seed)
    for unit in Self.units(using: &rng) {
      for (reading, overtime) in [(RoundedDisplay.Reading.remaining, false), (.remaining, true), (.elapsed, false)] {
        let display = RoundedDisplay(unit: Ticks.duration(unit), reading: reading, showsOvertime: overtime)
        let rule = RoundedRule(unit: unit, elapsed: reading == .elapsed, overtime: overtime)
        for remaining in Self.remainingTimes(unit: unit, using: &rng) {
          let context = "\(display) at \(remaining) ns, seed \(seed)"
          let (value, next) = rule.evaluate(remaining: remaining, paused: false)
          #expect(Ticks.duration(value) == display.value(remaining: Ticks.duration(remaining)), "\(context)")
          #expect(next.map(Ticks.duration) == display.nextChange(after: Ticks.duration(remaining)), "\(context)")
          #expect(rule.evaluate(remaining: remaining, paused: true) == (value, nil), "\(context)")
          // The serving loop's step, for a countdown with time left.
          guard reading == .remaining, remaining > 0 else { continue }
          let step = rule.step(remaining: remaining)
          #expect(step?.value == value && step?.next == next, "step, \(context)")
        }
      }
    }
  }

  /// A board that keeps every row's value serves a phase group once per unit, at the end of its window:
  /// each row's value there is `number − period` units, which is what the display shows at that instant.
  @Test func aPhaseGroupShowsAtItsServeWhatRoundedDisplayShows() {
    let seed = SeededGenerator.testSeed()
    var rng = SeededGenerator(seed: seed)
    for unit in Self.units(using: &rng) where unit >= 2 {
      let rule = RoundedRule(unit: unit)
      let display = RoundedDisplay(unit: Ticks.duration(unit))
      // Windows as `LiveColumns` makes them: at least two per unit, the last one ending at or after it.
      let count = Tick.random(in: 2...Swift.min(unit, 64), using: &rng)
      let width = (unit + count - 1) / count
      for _ in 0..<200 {
        let end = Tick.random(in: 0...(Tick(1) << 52), using: &rng)
        let (number, phase) = rule.unitNumber(of: end)
        #expect(number * unit + phase == end && phase >= 0 && phase < unit)
        let group = phase / width
        for period in [number - 1, number - 2, number - Tick.random(in: 3...1_000, using: &rng)] {
          let serve = period * unit + (group + 1) * width
          guard serve < end else { continue }
          let units = rule.units(endingIn: number, period: period)
          let context = "end \(end), unit \(unit), width \(width), period \(period), seed \(seed)"
          #expect(
            Ticks.duration(rule.value(units: units)) == display.value(remaining: Ticks.duration(end - serve)),
            "\(context)")
          #expect(units == rule.units(remaining: end - serve), "\(context)")
        }
      }
    }
  }
}
