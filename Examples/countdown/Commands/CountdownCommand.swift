import ArgumentParser

struct CountdownCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "countdown",
    abstract: "Live countdowns in the terminal: a timer, a stopwatch, and a live order board on SQLite.",
    discussion: """
      With a time, counts down to it in place: a ring that empties and changes colour as the end \
      nears; space pauses, + and - add or remove a minute, q quits. When standard output is not a \
      terminal (or with --plain) it prints one line per change instead, for scripts.

      Examples:
        countdown 25m                       a 25-minute timer
        countdown 18:00 --title Train       until 6 pm (tomorrow if it is past)
        countdown '2027-01-01 00:00 UTC' --style units --locale de
        countdown 25m 5m --title Focus --title Break    one after the other
        countdown 10 --end-text Done --blink --quit-after 30
        countdown 90s --exec 'notify-send done' --outfile /tmp/left.txt --no-bell
        countdown 3m --voice --locale ru    says the time left in Russian
        countdown --up                      a stopwatch (l lap, r reset)
        countdown 3s --plain                00:03, 00:02, 00:01, 00:00, one per line
        countdown format 1h30m              the four formats of a duration
        countdown ring 75% --svg            the progress ring as SVG
        countdown board                     a live order board (a demo SQLite database)
        countdown expire --db postgres://…  expire each order once across workers (PostgreSQL)

      'countdown help run' lists the forms of <time>, the options and the keys.
      """,
    subcommands: [RunCommand.self, FormatCommand.self, RingCommand.self, BoardCommand.self, ExpireCommand.self],
    defaultSubcommand: RunCommand.self
  )

  /// Parses and runs the command, as ArgumentParser's own `main()` does, except that a negative time,
  /// which ArgumentParser would take for options (`-5s`; `-1h30m` would even ask for help), is
  /// answered with what to write instead.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let hint = NegativeTimeHint.message(for: arguments) { exit(withError: ValidationError(hint)) }
    var command: any ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      exit(withError: error)
    }
    do {
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}
