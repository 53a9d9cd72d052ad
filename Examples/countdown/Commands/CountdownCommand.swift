import ArgumentParser

@main
struct CountdownCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "countdown",
    abstract: "Live countdowns in the terminal: a timer, a stopwatch, and a live order board on SQLite.",
    discussion: """
      With a time, counts down to it in place: a ring that empties and changes colour as the end \
      nears. When standard output is not a terminal (or with --plain) it prints one line per change \
      instead, for scripts.

      Examples:
        countdown 25m                       a 25-minute timer
        countdown 18:00 --title "Train"     until 6 pm (tomorrow if it is past)
        countdown 2026-12-31T23:59:59Z --style units
        countdown --up                      a stopwatch
        countdown 3s --plain                03, 02, 01, 00 on separate lines
        countdown format 5400 --style coarse --locale de
        countdown board                     the live order board (a demo database)
      """,
    subcommands: [RunCommand.self, FormatCommand.self, RingCommand.self, BoardCommand.self],
    defaultSubcommand: RunCommand.self
  )
}
