public import Foundation

// The engine's edge: the one place where the clock's instants and `Countdown` values become ticks and
// rows, and ticks become instants again.

extension CountdownEngine {
  /// `instant` as a tick: rounded down, for the current time (the engine never believes it is later
  /// than it is).
  @inlinable
  func tick(now instant: C.Instant) -> Tick {
    Ticks.floor(origin.duration(to: instant))
  }

  /// `instant` as a tick: rounded up, for an end (a countdown never shows less time than it has).
  @inlinable
  func tick(end instant: C.Instant) -> Tick {
    Ticks.ceiling(origin.duration(to: instant))
  }

  /// `tick` as an instant of the clock.
  @usableFromInline
  func instant(_ tick: Tick) -> C.Instant {
    origin.advanced(by: Ticks.duration(tick))
  }

  /// What a row starts as for `countdown`.
  @inlinable
  func spec(for countdown: Countdown<C.Instant>, target: Date? = nil) -> EngineCore.RowSpec {
    let total = countdown.total.map(Ticks.ceiling)
    switch countdown.state {
    case .running(let end):
      return EngineCore.RowSpec(end: tick(end: end), total: total, target: target?.timeIntervalSinceReferenceDate)
    case .paused(let remaining, let since):
      let pausedAt = tick(now: since)
      return EngineCore.RowSpec(
        end: Ticks.sum(pausedAt, Ticks.ceiling(remaining)), pausedAt: pausedAt, total: total)
    }
  }

  /// The countdown row `row` holds, in the clock's instants.
  func countdown(of row: Int, in core: EngineCore) -> Countdown<C.Instant> {
    let head = core.rows[row]
    let total = core.rows.totals[row]
    var countdown = Countdown(end: instant(head.end), total: total < 0 ? nil : Ticks.duration(total))
    if head.flags.isPaused {
      let pausedAt = core.rows.pausedAt[row]
      countdown = Countdown(end: instant(head.end), total: countdown.total).paused(at: instant(pausedAt))
    }
    return countdown
  }
}
