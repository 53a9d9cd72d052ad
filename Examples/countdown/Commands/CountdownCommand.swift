import ArgumentParser

@main
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
        countdown 2026-12-31T23:59:59Z --style units --locale de
        countdown --up                      a stopwatch
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
}
