import ArgumentParser
import CountdownInput
import CountdownKit
import Foundation

/// `countdown <time>…`: one countdown or several in a row, live on a terminal or one line per change.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Count down to a time, or to several one after another (the default command).",
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
      of any script count (๑๒:๓๐ is 12:30); ², ½ and Ⅻ are not digits. Several times run one after \
      another, and --title repeats in order: a pomodoro is 25m 5m 25m 5m --title Focus --title Break.

      On a terminal: space (or p) pauses and resumes, + and - add or remove a minute (also the arrow \
      keys), q quits; with --up, l records a lap and r starts again from zero (the laps are printed \
      when you quit). Ctrl-C quits with status 130; Ctrl-Z suspends and fg resumes with the true time. \
      At zero the terminal bell rings (--no-bell: silent) and the window title, which shows the time \
      left, is given back. With --end-text or --blink the view stays after zero until a key is \
      pressed or --quit-after has passed. Only the cells that change are sent to the terminal.

      Otherwise (a pipe, a file, or --plain): one line each time the shown time changes, the last \
      one zero; then the command exits 0. A time already past prints zero at once. --exec, \
      --outfile and --voice work in both.

      Examples:
        countdown 25m --title Tea
        countdown 25m 5m 25m 5m --title Focus --title Break
        countdown 10 --end-text 'Time for tea' --blink --quit-after 30
        countdown '2027-01-01 00:00' --style units --locale de
        countdown 90s --exec 'notify-send "$COUNTDOWN_TITLE done"' --title Eggs
        countdown 5m --outfile /tmp/left.txt --no-window-title
        countdown 3m --voice --locale ru
        countdown 10s --plain | while read t; do echo "left: $t"; done
        countdown --up
      """
  )

  @Argument(
    help: ArgumentHelp(
      "What to count to: a duration (25m), a time of day (18:00) or a date (2027-01-01 14:00 UTC); several run in turn. Optional with --up.",
      valueName: "time"))
  var times: [String] = []

  @OptionGroup var format: FormatOptions

  @Option(help: "A title shown above the countdown (e.g. --title Tea); repeat it for a sequence of times.")
  var title: [String] = []

  @Flag(help: "Count up: a stopwatch, or from zero to <time> when one is given.")
  var up = false

  @Flag(help: "Keep counting past zero; overtime shows as negative time.")
  var overtime = false

  @Flag(help: "Print one line per change instead of the live view, even on a terminal.")
  var plain = false

  @Flag(inversion: .prefixedNo, help: "Ring the terminal bell at zero (e.g. --no-bell to stay silent).")
  var bell = true

  @Flag(help: "Flash the screen once the countdown has ended (e.g. --blink --quit-after 10).")
  var blink = false

  @Option(help: ArgumentHelp("Text to show at zero (e.g. --end-text 'Tea is ready').", valueName: "text"))
  var endText: String?

  @Option(
    help: ArgumentHelp(
      "With --end-text or --blink: quit this many seconds after zero (e.g. --quit-after 10).", valueName: "seconds"))
  var quitAfter: DecimalNumber?

  @Option(
    help: ArgumentHelp(
      "A command run by /bin/sh at zero, with COUNTDOWN_TITLE and COUNTDOWN_END set (e.g. --exec 'notify-send done').",
      valueName: "command"))
  var exec: String?

  @Option(
    help: ArgumentHelp("A file that always holds the time shown (e.g. --outfile /tmp/left.txt).", valueName: "path"))
  var outfile: String?

  @Flag(inversion: .prefixedNo, help: "Show the time left in the window title (e.g. --no-window-title to leave it).")
  var windowTitle = true

  @Flag(
    help:
      "Say the time left at intervals in the --locale's language, with espeak-ng or say (or COUNTDOWN_SPEAK_COMMAND)."
  )
  var voice = false

  func validate() throws {
    if times.isEmpty && !up {
      throw ValidationError("Missing <time>. Try: countdown 25m (or countdown --up for a stopwatch).")
    }
    if up && format.style == .spoken {
      throw ValidationError("--style spoken reads the time left; use it without --up.")
    }
    if times.count > 1 && (up || overtime) {
      throw ValidationError(
        "\(up ? "--up" : "--overtime") takes one <time>; several times run as a sequence of countdowns.")
    }
    if title.count > max(times.count, 1) {
      throw ValidationError("\(title.count) titles for \(times.count) times: give at most one --title per time.")
    }
    if quitAfter != nil && endText == nil && !blink {
      throw ValidationError(
        "--quit-after applies after zero with --end-text or --blink, e.g. --end-text Done --quit-after 10.")
    }
    if let quitAfter, quitAfter.value > 86_400 { throw ValidationError("--quit-after is at most 86400 seconds.") }
    if let outfile { try OutputFile(path: outfile).validate() }
    if voice {
      let language = format.resolvedLocale.language.languageCode?.identifier ?? "en"
      guard Speaker.program(language: language, environment: ProcessInfo.processInfo.environment) != nil else {
        throw ValidationError(SpeakerError().description)
      }
    }
    _ = try plan(now: Date())
  }

  func run() async throws {
    let lines = try await Self.run(plan(now: Date()), plain: plain || !Terminal.outputIsTerminal)
    for line in lines { print(line) }
  }

  /// What to run, with every `<time>` resolved at `now`; a ValidationError (exit 64) for a bad one.
  func plan(now: Date) throws -> RunPlan {
    var items: [RunPlan.Item] = []
    for (index, time) in times.enumerated() {
      let target: TimeSpec.Target
      do {
        target = try TimeSpec(parsing: time).resolved(now: now, calendar: .current)
      } catch {
        throw ValidationError(error.description)
      }
      let itemTitle = title.isEmpty ? nil : title[index % title.count]
      items.append(RunPlan.Item(target: target, title: itemTitle.map(TerminalText.sanitized)))
    }
    if items.isEmpty { items = [RunPlan.Item(target: nil, title: title.first.map(TerminalText.sanitized))] }
    var plan = RunPlan(items: items, style: format.style.preset, locale: format.resolvedLocale)
    plan.countsUp = up
    plan.overtime = overtime
    plan.bell = bell
    plan.blink = blink
    plan.endText = endText.map(TerminalText.sanitized)
    plan.quitAfter = quitAfter.map { .milliseconds(Int64(($0.value * 1_000).rounded())) }
    plan.exec = exec
    plan.outfile = outfile.map(OutputFile.init(path:))
    plan.windowTitle = windowTitle
    plan.voice = voice
    return plan
  }

  @MainActor
  private static func run(_ plan: RunPlan, plain: Bool) async throws -> [String] {
    let engine = Engine(clock: ContinuousClock())
    defer { engine.shutdown() }
    let effects = try RunEffects(plan: plan)
    do {
      if plain {
        let signals = SignalHandlers(live: false)
        try await PlainCountdown(plan: plan, engine: engine, effects: effects).run()
        withExtendedLifetime(signals) {}
        return []
      }
      return try await LiveCountdown(plan: plan, engine: engine, effects: effects).run()
    } catch let error as TimelineError {
      throw ValidationError("That date is too far away to count to: \(error)")
    }
  }
}
