import CountdownCommandLine
import CountdownPostgres
import Foundation

/// `countdown`'s server support: the orders table and its expiry workers in PostgreSQL.
struct PostgresServer: CountdownServer {
  /// The table the board's orders live in.
  static let tableName = "orders"

  func open(url: String, create: Bool) throws -> any OrderSource {
    let location = try Self.located(url)
    let table = try DeadlineTable(name: Self.tableName)
    let store = try blocking { try await PostgresDeadlines.connect(to: location, table: table, create: create) }
    return PostgresOrderSource(store: store)
  }

  /// The location `url` names, completed from the environment (`PGPASSWORD`, `~/.pgpass`, …) as libpq
  /// does; what was wrong there but not fatal (a password file others can read) is printed.
  static func located(_ url: String) throws -> PostgresLocation {
    let location = try PostgresLocation(url: url)
    for warning in location.warnings {
      FileHandle.standardError.write(Data("countdown: \(TerminalText.sanitized(warning))\n".utf8))
    }
    return location
  }
}
