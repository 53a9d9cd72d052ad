import CountdownKit
import Foundation

/// One countdown as the command line asks for it: what to run and how to show it.
struct CountdownSetup: Sendable {
  /// The countdown to run (for a deadline: as seen at the start, for its total).
  var countdown: Countdown<EngineInstant>
  /// The wall-clock deadline, if `<time>` was a time of day or a date: the engine then follows the
  /// wall clock, so a change of the system clock moves the end with it.
  var deadline: Date?
  /// The display of the time as text.
  var text: MappedDisplay<OffsetDisplay<TimeDisplay>, String>
  /// Whether the command ends when the countdown reaches zero (not for a stopwatch or `--overtime`).
  var stopsAtEnd: Bool
  /// Whether it counts up.
  var countsUp: Bool

  /// The setup for `target` (nil: a stopwatch) on `engine`.
  ///
  /// - Throws: `WallClockTimelineError` for a date too far away for the engine's timeline.
  init(
    target: TimeSpec.Target?,
    engine: Engine,
    style: CountdownFormatStyle.Preset,
    locale: Locale,
    countsUp: Bool,
    overtime: Bool
  ) throws {
    let now = engine.now
    switch target {
    case nil:
      countdown = .stopwatch(startedAt: now)
    case .duration(let duration):
      countdown = Countdown(duration: duration, startingAt: now)
    case .deadline(let date):
      let end = try engine.instant(for: date)
      let total = now.duration(to: end)
      countdown = Countdown(end: end, total: total > .zero ? total : nil)
      deadline = date
    }
    self.countsUp = countsUp
    stopsAtEnd = target != nil && !overtime
    text = TimeDisplay.text(
      style, locale: locale, countsUp: countsUp, total: countdown.total ?? .zero, showsOvertime: overtime)
  }

  /// The display the command follows: text, urgency, and optionally a ring of `ringSteps` steps and
  /// `--voice` announcements.
  func display(ringSteps: Int?, announcements: Announcements?) -> CommandDisplay {
    let ring: RingDisplay? = ringSteps.map { steps in
      if let total = countdown.total, total > .zero {
        countsUp
          ? RingDisplay(kind: .done(ProgressDisplay(steps: steps, total: total)))
          : RingDisplay(kind: .left(ProgressDisplay(steps: steps, total: total)))
      } else {
        RingDisplay(kind: .minute(steps: 60))
      }
    }
    return CommandDisplay(
      text: text, urgency: countsUp ? .phases(.plenty, [:]) : Urgency.phases(total: countdown.total), ring: ring,
      announcements: announcements?.display)
  }

  /// Starts the countdown on `engine` with `display`.
  func start<Display: CountdownDisplay>(
    on engine: Engine,
    display: Display,
    onChange: @escaping @MainActor @Sendable (CountdownSnapshot<Display.Value, EngineInstant>) -> Void
  ) throws -> Handle {
    if let deadline {
      return try engine.add(until: deadline, total: countdown.total, display: display, onChange: onChange)
    }
    return engine.add(countdown, display: display, onChange: onChange)
  }
}
