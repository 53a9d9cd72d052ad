import ArgumentParser

/// `countdown board init`: creates the orders table where `--db` points.
struct InitBoard: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Create the orders table (an SQLite file, or the tables and triggers in PostgreSQL).",
    discussion: """
      With --db postgres://user@host:5432/database it creates the orders table, the triggers that push \
      its changes to every board (LISTEN/NOTIFY) and the tables expiry workers record into; running it \
      again completes what is missing and changes nothing else. An SQLite file is created when missing.
      """
  )

  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    print(try OrderSources.initialize(database.path(parent: board.database)))
  }
}
