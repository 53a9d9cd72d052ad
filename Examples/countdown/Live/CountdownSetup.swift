import CountdownCore
import Foundation

/// One countdown as the command line asks for it: the value to run and how to show it.
struct CountdownSetup {
  /// The countdown to run.
  var countdown: Countdown<EngineInstant>
  /// The display of the time as text.
  var text: MappedDisplay<OffsetDisplay<TimeDisplay>, String>
  /// Whether the command ends when the countdown reaches zero (not for a stopwatch or `--overtime`).
  var stopsAtEnd: Bool
  /// Whether it counts up.
  var countsUp: Bool

  /// The setup for `target` (nil: a stopwatch) starting at `now`; `end` converts a deadline to an instant.
  init(
    target: TimeSpec.Target?,
    now: EngineInstant,
    end: (Date) -> EngineInstant,
    style: CountdownFormatStyle.Preset,
    locale: Locale,
    countsUp: Bool,
    overtime: Bool
  ) {
    switch target {
    case nil:
      countdown = .stopwatch(startedAt: now)
    case .duration(let duration):
      countdown = Countdown(duration: duration, startingAt: now)
    case .deadline(let date):
      let instant = end(date)
      let total = now.duration(to: instant)
      countdown = Countdown(end: instant, total: total > .zero ? total : nil)
    }
    self.countsUp = countsUp
    stopsAtEnd = target != nil && !overtime
    text = TimeDisplay.text(
      style, locale: locale, countsUp: countsUp, total: countdown.total ?? .zero, showsOvertime: overtime)
  }
}
