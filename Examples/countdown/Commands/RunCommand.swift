import ArgumentParser
import CountdownInput
import CountdownKit
import Foundation

/// `countdown <time>`: one countdown, live on a terminal or one line per change.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Count down to a time (the default command).",
    discussion: """
      <time> is a duration, a time of day, or a date:
        90s 25m 1h30m '1h 5m 30s' 1.5h 2d  a duration ('2 hours 30 minutes', 500ms)
        10 2.5                             seconds
        1:30:00                            a duration as H:MM:SS (all three parts)
        18:00 9:30 6pm 6:30pm              the next time the clock shows it
        2027-01-01                         local midnight at the start of that day
        '2027-01-01 14:00'                 local time (also 2027-01-01T14:00)
        '2027-01-01 14:00 UTC'             an instant: UTC, Z, or +02:00 (to ±18:00)

      Two numbers with a colon are a time of day: 5:00 is five o'clock; five minutes is 5m. Digits \
      of any script count (๑๒:๓๐ is 12:30); ², ½ and Ⅻ are not digits.

      On a terminal: space (or p) pauses and resumes, + and - add or remove a minute (also the arrow \
      keys), q quits; Ctrl-C quits with status 130; Ctrl-Z suspends and fg resumes with the true \
      time. Durations are measured on a monotonic clock, so changing the system clock does not \
      move them.

      Otherwise (a pipe, a file, or --plain): one line each time the shown time changes, the last \
      one zero; then the command exits 0. A time already past prints zero at once.

      Examples:
        countdown 25m --title Tea
        countdown 18:00 --style units --locale de
        countdown 10s --plain | while read t; do echo "left: $t"; done
        countdown --up --style units
      """
  )

  @Argument(
    help: ArgumentHelp(
      "What to count to: a duration (25m), a time of day (18:00) or a date (2026-12-31T23:59:59Z). Optional with --up.",
      valueName: "time"))
  var time: String?

  @OptionGroup var format: FormatOptions

  @Option(help: "A title shown above the countdown.")
  var title: String?

  @Flag(help: "Count up: a stopwatch, or from zero to <time> when one is given.")
  var up = false

  @Flag(help: "Keep counting past zero; overtime shows as negative time.")
  var overtime = false

  @Flag(help: "Print one line per change instead of the live view, even on a terminal.")
  var plain = false

  func validate() throws {
    if time == nil && !up {
      throw ValidationError("Missing <time>. Try: countdown 25m (or countdown --up for a stopwatch).")
    }
    if up && format.style == .spoken {
      throw ValidationError("--style spoken reads the time left; use it without --up.")
    }
    _ = try target(now: Date())
  }

  func run() async throws {
    let target = try target(now: Date())
    let summary = try await Self.run(
      target: target, style: format.style.preset, locale: format.resolvedLocale, countsUp: up, overtime: overtime,
      title: title, plain: plain || !Terminal.outputIsTerminal)
    if let summary { print(summary) }
  }

  @MainActor
  private static func run(
    target: TimeSpec.Target?, style: CountdownFormatStyle.Preset, locale: Locale, countsUp: Bool, overtime: Bool,
    title: String?, plain: Bool
  ) async throws -> String? {
    let engine = Engine(clock: ContinuousClock())
    defer { engine.shutdown() }
    let setup: CountdownSetup
    do {
      setup = try CountdownSetup(
        target: target, engine: engine, style: style, locale: locale, countsUp: countsUp, overtime: overtime)
    } catch {
      throw ValidationError("That date is too far away to count to: \(error)")
    }
    if plain {
      let signals = SignalHandlers(live: false)
      try await PlainCountdown.run(setup, engine: engine)
      withExtendedLifetime(signals) {}
      return nil
    }
    return try await LiveCountdown(setup, engine: engine, title: title, locale: locale).run()
  }

  /// The target of `<time>` at `now`, or nil for a stopwatch; a ValidationError (exit 64) if it is not a time.
  private func target(now: Date) throws -> TimeSpec.Target? {
    guard let time else { return nil }
    do {
      return try TimeSpec(parsing: time).resolved(now: now, calendar: .current)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
