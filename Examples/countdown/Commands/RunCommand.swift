import ArgumentParser
import CountdownKit
import Foundation

/// `countdown <time>…`: one countdown or several in a row, live on a terminal or one line per change.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Count down to a time, or to several one after another (the default command).",
    discussion: """
      <time> is a duration, a clock time, a day or a date (case does not matter; quote it when it \
      has spaces):
      \(TimeSpec.formsTable)

      How it is read:
        - H:MM is a clock time (5:00 is five o'clock; five minutes is 5m) and H:MM:SS a duration, \
      unless a day, a zone or am/pm goes with it (termdown reads both as clock times).
        - A clock time alone is today while it is ahead, otherwise tomorrow; a weekday alone is the \
      start of the next such day (a week ahead on that day). A date or day already past ends at once.
        - A time skipped by a daylight-saving change moves forward by the gap (02:30 becomes 03:30); \
      one that happens twice is the first.
        - A zone abbreviation is a fixed offset: 18:00 EST is 18:00 -05:00 even in summer (for the time \
      in a place, write its zone: 18:00 America/New_York). \(ZoneAbbreviations.ambiguousList) name \
      several zones: an error lists them.
        - 01/02/2027 is an error that names both dates unless --locale says which comes first (en_US: \
      the month; en_GB, de: the day) or only one reading is a date (13/02/2027). Dots are day first.
        - Digits of any script count (๑๒:๓๐ is 12:30); ², ½ and Ⅻ are not digits.
        - A year in a duration is 365.25 days. The furthest a countdown runs is \(TimeSpec.limitText) \
      from its start, for a duration and a date alike; beyond that is an error.

      Several times run one after another, and --title repeats in order: a pomodoro is \
      25m 5m 25m 5m --title Focus --title Break.

      On a terminal: space (or p) pauses and resumes, + and - add or remove a minute (also the arrow \
      keys), q quits; with --up, l records a lap and r starts again from zero (the laps are printed \
      when you quit). Ctrl-Z suspends and fg resumes with the true time. At zero the terminal bell \
      rings (--no-bell: silent) and the window title, which shows the time left, is given back. With \
      --end-text or --blink the view stays after zero until a key is pressed or --quit-after has \
      passed. Only the cells that change are sent to the terminal.

      Otherwise (a pipe, a file, or --plain): one line each time the shown time changes, the last \
      one zero. A time already past prints zero at once. --exec, --outfile and --voice work in both.

      Exit status (the terminal is restored in every case):
        0    the last countdown reached zero (or a stopwatch was stopped with q)
        3    quit with q or Esc before zero, also part-way through a sequence
        64   bad input: the message quotes it and says what to write instead
        130  Ctrl-C (SIGINT); 143 SIGTERM; 129 SIGHUP; 131 SIGQUIT
        1    the countdown could not run (the message says why)
      So countdown 25m && play-alarm sounds the alarm only if the 25 minutes ran out.

      Examples:
        countdown 25m --title Tea
        countdown 25m 5m 25m 5m --title Focus --title Break
        countdown 'fri 17:00' --title Weekend
        countdown '18:00 Europe/Berlin' --style units
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
      "What to count to: a duration (25m), a clock time (18:00, 'fri 14:00') or a date (2027-01-01 14:00 UTC); several run in turn. Optional with --up.",
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
    help: ArgumentHelp(
      "How long an --exec command may run before it and what it started are ended (e.g. --exec-timeout 30s).",
      valueName: "duration"))
  var execTimeout = "10m"

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
    _ = try execTimeoutDuration()
    if voice {
      let language = format.resolvedLocale.language.languageCode?.identifier ?? "en"
      guard Speaker.program(language: language, environment: ProcessInfo.processInfo.environment) != nil else {
        throw ValidationError(SpeakerError().description)
      }
    }
    _ = try plan(now: Date())
  }

  func run() async throws {
    let outcome = try await Self.run(plan(now: Date()), plain: plain || !Terminal.outputIsTerminal)
    for line in outcome.lines { print(line) }
    if !outcome.reachedZero { throw ExitCode(RunOutcome.quitEarlyStatus) }
  }

  /// What to run, with every `<time>` resolved at `now`; a ValidationError (exit 64) for a bad one.
  func plan(now: Date) throws -> RunPlan {
    var items: [RunPlan.Item] = []
    for (index, time) in times.enumerated() {
      let target: TimeSpec.Target
      do {
        target = try TimeSpec(parsing: time, dateOrder: dateOrder).resolved(now: now, calendar: .current)
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
    plan.execTimeout = try execTimeoutDuration()
    plan.outfile = outfile.map(OutputFile.init(path:))
    plan.windowTitle = windowTitle
    plan.voice = voice
    return plan
  }

  /// `--exec-timeout` as a duration: at least a second, at most a day.
  private func execTimeoutDuration() throws -> Duration {
    guard case .duration(let duration) = try? TimeSpec(parsing: execTimeout).form,
      duration >= .seconds(1) && duration <= .seconds(86_400)
    else {
      throw ValidationError(
        "--exec-timeout must be a duration from 1s to 24h, e.g. 30s or 5m; got '\(TerminalText.sanitized(execTimeout))'."
      )
    }
    return duration
  }

  /// How `01/02/2027` is read: in the order of the `--locale` given, if any (not the system's, which
  /// on a server is often en_US_POSIX whatever its users write).
  private var dateOrder: DateOrder? {
    format.locale.flatMap { DateOrder(locale: Locale(identifier: $0)) }
  }

  @MainActor
  private static func run(_ plan: RunPlan, plain: Bool) async throws -> RunOutcome {
    let engine = Engine(clock: ContinuousClock())
    defer { engine.shutdown() }
    let effects = try RunEffects(plan: plan)
    do {
      if plain {
        let signals = SignalHandlers(live: false)
        try await PlainCountdown(plan: plan, engine: engine, effects: effects).run()
        withExtendedLifetime(signals) {}
        return RunOutcome(lines: [], reachedZero: true)
      }
      return try await LiveCountdown(plan: plan, engine: engine, effects: effects).run()
    } catch let error as WallClockTimelineError {
      throw ValidationError("That date is too far away to count to: \(error)")
    }
  }
}
