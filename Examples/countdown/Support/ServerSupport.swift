/// What the command needs of a server. `countdown-pg` (Examples/Package.swift) passes one that reaches
/// PostgreSQL to ``CommandEntry/main(server:)``; the plain `countdown` passes none.
package protocol CountdownServer: Sendable {
  /// Connects to the orders table at `url` (creating it first with `create`).
  func open(url: String, create: Bool) throws -> any OrderSource

  /// Runs one expiry worker on the orders table at `db` until interrupted, printing a line per event.
  func expire(
    db: String, exec: String?, lease: Duration, worker: String?, concurrency: Int, timeout: Duration?,
    grace: Duration, metricsFile: String?
  ) async throws
}

/// The command's entry point, for the executables that run it.
package enum CommandEntry {
  /// Parses the arguments and runs the command with `server` (nil: none), then exits.
  package static func main(server: (any CountdownServer)?) async {
    await ServerSupport.$server.withValue(server) { await CountdownCommand.main() }
  }
}

/// The server support of this run of the command; each use without one says how to get the build that
/// has it.
enum ServerSupport {
  /// The server that ``CommandEntry/main(server:)`` was given, for the whole run.
  @TaskLocal static var server: (any CountdownServer)?

  /// How to build a `countdown` that reaches PostgreSQL.
  static let buildAdvice = """
    This countdown was built without PostgreSQL support (it keeps app builds free of the server stack). \
    Build the one that has it: swift build -c release --package-path Examples --product countdown-pg \
    and run Examples/.build/release/countdown-pg, the same command with PostgreSQL support.
    """

  /// The server support this run was given.
  ///
  /// - Throws: ``ServerSupportMissing`` (the build advice) when it was given none.
  static func current() throws(ServerSupportMissing) -> any CountdownServer {
    guard let server else { throw ServerSupportMissing() }
    return server
  }
}

/// A use of PostgreSQL in a `countdown` without server support.
struct ServerSupportMissing: Error, CustomStringConvertible {
  var description: String { ServerSupport.buildAdvice }
}
