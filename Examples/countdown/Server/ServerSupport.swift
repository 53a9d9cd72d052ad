#if !COUNTDOWN_POSTGRES
  /// PostgreSQL support in a `countdown` built without it (the root package's): each use says how to
  /// get the build that has it. The other build (Packages/CountdownPostgres) defines this type in
  /// Server/PostgresOrderSource.swift and
  /// Server/ServerSupport+Expire.swift instead.
  struct ServerSupportMissing: Error, CustomStringConvertible {
    var description: String { ServerSupport.buildAdvice }
  }

  enum ServerSupport {
    /// How to build a `countdown` that reaches PostgreSQL.
    static let buildAdvice = """
      This countdown was built without PostgreSQL support (it keeps app builds free of the server stack). \
      Build the one that has it: swift build -c release --package-path Packages/CountdownPostgres \
      and run Packages/CountdownPostgres/.build/release/countdown-pg, the same command with PostgreSQL support.
      """

    static func open(url: String, create: Bool) throws -> any OrderSource {
      throw ServerSupportMissing()
    }

    static func expire(
      db: String, exec: String?, lease: Duration, worker: String?, concurrency: Int, timeout: Duration?,
      grace: Duration, metricsFile: String?
    ) async throws {
      throw ServerSupportMissing()
    }
  }
#endif
