import Foundation
import Logging
public import PostgresNIO

extension DeadlineTable {
  /// How long a migration's statements wait for a lock before the migration gives up (and is tried
  /// again): a `DROP TRIGGER` queued behind a long transaction would otherwise stall every writer of
  /// the table behind it.
  static let migrationLockTimeout = Duration.seconds(2)
  /// How many times a migration that could not take its locks is tried.
  static let migrationTries = 5

  /// Creates the table, its companions and triggers, or migrates them from an older version: each
  /// migration newer than the table's version runs in a transaction of its own with `lock_timeout`,
  /// records its version, and is tried again (up to five times, waiting longer each time) when a lock
  /// could not be had. A table already of this version whose triggers or functions differ from this
  /// version's (dropped, disabled, edited) has them written again.
  ///
  /// - Throws: ``PostgresDeadlineError`` of kind `.schemaMissing` if a table of that name exists without
  ///   the columns (it is left untouched) or is of a newer version than this package knows; `.server` if
  ///   the locks could not be had; or the server's error.
  public func create(on connection: PostgresConnection, at location: PostgresLocation, logger: Logger = .quiet)
    async throws(PostgresDeadlineError)
  {
    try await create(
      on: connection, at: location, logger: logger, lockTimeout: Self.migrationLockTimeout,
      tries: Self.migrationTries)
  }

  /// ``create(on:at:logger:)`` with a lock timeout and a number of tries of its own (tests use short ones).
  func create(
    on connection: PostgresConnection, at location: PostgresLocation, logger: Logger, lockTimeout: Duration,
    tries: Int
  ) async throws(PostgresDeadlineError) {
    do {
      let missing = try await missingColumns(on: connection, logger: logger)
      if let missing, !missing.isEmpty, !(missing.allSatisfy { Self.addedColumns.contains($0) }) {
        throw PostgresDeadlineError(
          .schemaMissing,
          "\(location) has a table \(qualifiedName) without the column(s) \(missing.joined(separator: ", ")); "
            + "it was left untouched. Use another table name.")
      }
      var version = try await installedVersion(on: connection, logger: logger, tableExists: missing != nil)
      if version > Self.schemaVersion {
        throw PostgresDeadlineError(
          .schemaMissing,
          "The table \(qualifiedName) in \(location) is of version \(version), newer than this program's "
            + "(\(Self.schemaVersion)): update the program.")
      }
      if version == Self.schemaVersion, try await problems(on: connection, logger: logger).isEmpty { return }
      // A table of this version whose triggers differ has its last migration run again.
      version = min(version, Self.schemaVersion - 1)
      for migration in migrations where migration.version > version {
        try await migrate(
          migration, on: connection, at: location, logger: logger, lockTimeout: lockTimeout, tries: tries)
        logger.info("Migrated \(qualifiedName) to version \(migration.version)")
      }
    } catch let error as PostgresDeadlineError {
      throw error
    } catch {
      throw .wrapping(error, at: location, doing: "creating or migrating the table \(qualifiedName)")
    }
  }

  /// Runs one migration in a transaction with `lock_timeout`, recording its version; tries again when
  /// a lock could not be had in time.
  private func migrate(
    _ migration: (version: Int, statements: [String]), on connection: PostgresConnection,
    at location: PostgresLocation, logger: Logger, lockTimeout: Duration, tries allowed: Int
  ) async throws {
    var tries = 0
    while true {
      tries += 1
      do {
        try await connection.queryUnlessClosed("BEGIN", logger: logger)
        let timeout = max(1, Int(lockTimeout.timeInterval * 1_000))
        try await connection.queryUnlessClosed(
          PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(timeout)ms'"), logger: logger)
        for statement in migration.statements {
          try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        if migration.version >= 2 {
          try await connection.queryUnlessClosed(
            PostgresQuery(unsafeSQL: "UPDATE \(meta) SET version = \(migration.version)"), logger: logger)
        }
        try await connection.queryUnlessClosed("COMMIT", logger: logger)
        return
      } catch {
        _ = try? await connection.queryUnlessClosed("ROLLBACK", logger: logger)
        guard Self.sqlState(error) == "55P03" else { throw error }
        guard tries < allowed else {
          throw PostgresDeadlineError(
            .server,
            "Could not migrate \(qualifiedName) in \(location) to version \(migration.version): a lock on it was "
              + "not granted within \(PostgresDeadlineFollower.seconds(lockTimeout)), \(tries) times (a long "
              + "transaction holds it; see pg_locks). This migration changed nothing; try again later.")
        }
        logger.warning("Migrating \(qualifiedName): a lock was not granted in time; trying again")
        try await Task.sleep(for: .milliseconds(250 * (1 << tries)))
      }
    }
  }

  /// The version of the table's schema: 0 when there is no table, 1 for a table from before versions
  /// were recorded, else what `<name>_meta` says.
  private func installedVersion(on connection: PostgresConnection, logger: Logger, tableExists: Bool) async throws
    -> Int
  {
    guard tableExists else { return 0 }
    var hasMeta = false
    for try await exists in try await connection.queryUnlessClosed(
      PostgresQuery(unsafeSQL: "SELECT to_regclass('\(meta)') IS NOT NULL"), logger: logger
    ).decode(Bool.self) {
      hasMeta = exists
    }
    guard hasMeta else { return 1 }
    var version = 1
    for try await value in try await connection.queryUnlessClosed(
      PostgresQuery(unsafeSQL: "SELECT version FROM \(meta)"), logger: logger
    ).decode(Int.self) {
      version = value
    }
    return version
  }

  /// Checks that the table is there, of this version, with its companions, and its triggers and their
  /// functions as this version writes them (enabled, the same bodies, the pinned `search_path`).
  ///
  /// - Throws: ``PostgresDeadlineError`` of kind `.schemaMissing` naming what is missing or different
  ///   and how to fix it.
  public func verify(on connection: PostgresConnection, at location: PostgresLocation, logger: Logger = .quiet)
    async throws(PostgresDeadlineError)
  {
    do {
      guard let missingColumns = try await missingColumns(on: connection, logger: logger) else {
        throw PostgresDeadlineError(
          .schemaMissing,
          "No table \(name) in \(location)\(schema == "public" ? "" : " (schema \(schema))"). "
            + Self.initAdvice(location))
      }
      let older = missingColumns.filter { Self.addedColumns.contains($0) }
      guard missingColumns.count == older.count else {
        throw PostgresDeadlineError(
          .schemaMissing,
          "The table \(qualifiedName) in \(location) has no column(s) \(missingColumns.joined(separator: ", ")): "
            + "it is not a deadline table. Pass another database.")
      }
      let problems = try await problems(on: connection, logger: logger)
      guard problems.isEmpty else {
        throw PostgresDeadlineError(
          .schemaMissing,
          "The table \(qualifiedName) in \(location) is not as version \(Self.schemaVersion) of this program "
            + "expects: \(problems.joined(separator: "; ")). \(Self.initAdvice(location))")
      }
    } catch let error as PostgresDeadlineError {
      throw error
    } catch {
      throw .wrapping(error, at: location, doing: "checking the table \(qualifiedName)")
    }
  }

  /// What differs from this version: the version, companions, triggers, function bodies and settings.
  /// Read from the catalogs (which every role can read) and the version from `<name>_meta` (which a role
  /// needs `SELECT (version)` on).
  private func problems(on connection: PostgresConnection, logger: Logger) async throws -> [String] {
    var problems: [String] = []
    let companions = [removed, pruned, attempts, meta]
    var binds = PostgresBindings()
    binds.append(companions)
    binds.append(schema)
    binds.append(triggers)
    binds.append(["\(name)_stamp", "\(name)_notify"])
    binds.append(table)
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT 'missing ' || c FROM unnest($1::text[]) AS c WHERE to_regclass(c) IS NULL
        UNION ALL
        SELECT 'no trigger ' || t FROM unnest($3::text[]) AS t
        WHERE NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = to_regclass($5) AND tgname = t)
        UNION ALL
        SELECT 'the trigger ' || tgname || ' is disabled' FROM pg_trigger
        WHERE tgrelid = to_regclass($5) AND tgname = ANY($3::text[]) AND tgenabled = 'D'
        UNION ALL
        SELECT 'body:' || p.proname || ':' || p.prosecdef::text || ':' || coalesce(array_to_string(p.proconfig, ';'), '')
          || E'\\n' || p.prosrc
        FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace WHERE s.nspname = $2 AND p.proname = ANY($4::text[])
        """, binds: binds)
    var bodies: [String: String] = [:]
    for try await line in try await connection.queryUnlessClosed(query, logger: logger).decode(String.self) {
      if line.hasPrefix("body:") {
        let parts = line.dropFirst(5).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        bodies[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
      } else {
        problems.append(line)
      }
    }
    let expected = [
      ("\(name)_stamp", false, stampBody), ("\(name)_notify", true, notifyBody),
    ]
    for (function, definer, body) in expected
    where bodies["\(function):\(definer):search_path=\(Self.pinnedPath)"] != body {
      problems.append("the function \(function) differs from this version's")
    }
    if problems.contains(where: { $0.hasPrefix("missing ") && $0.contains("_meta") }) {
      problems.append("version 1, from before versions were recorded")
      return problems
    }
    var version: Int?
    for try await value in try await connection.queryUnlessClosed(
      PostgresQuery(unsafeSQL: "SELECT version FROM \(meta)"), logger: logger
    ).decode(Int.self) {
      version = value
    }
    if version != Self.schemaVersion {
      problems.append("version \(version.map(String.init) ?? "unknown") instead of \(Self.schemaVersion)")
    }
    return problems
  }

  /// Columns later versions added: a table without them is of an older version, not a foreign table.
  static let addedColumns: Set<String> = ["discarded_at", "attempt_base"]

  /// The required columns the table lacks; nil when there is no such table. Read from `pg_attribute`, which
  /// every role can read (the information schema shows only the columns a role has privileges on).
  func missingColumns(on connection: PostgresConnection, logger: Logger) async throws -> [String]? {
    var binds = PostgresBindings()
    binds.append(table)
    let query = PostgresQuery(
      unsafeSQL: """
        SELECT attname::text FROM pg_attribute
        WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
        """, binds: binds)
    var present = Set<String>()
    for try await column in try await connection.queryUnlessClosed(query, logger: logger).decode(String.self) {
      present.insert(column)
    }
    guard !present.isEmpty else { return nil }
    return (Self.columns + ["changed_xid", "attempt_base"]).filter { !present.contains($0) }
  }

  /// The table's channel, read from `<name>_meta` (which a role needs `SELECT` on).
  ///
  /// - Throws: ``PostgresDeadlineError`` of kind `.schemaMissing` when it cannot be read.
  public func channel(on connection: PostgresConnection, at location: PostgresLocation, logger: Logger = .quiet)
    async throws(PostgresDeadlineError) -> String
  {
    do {
      var channel: String?
      for try await value in try await connection.queryUnlessClosed(
        PostgresQuery(unsafeSQL: "SELECT channel FROM \(meta)"), logger: logger
      ).decode(String.self) {
        channel = value
      }
      guard let channel else {
        throw PostgresDeadlineError(.schemaMissing, "\(qualifiedName)_meta in \(location) has no row.")
      }
      return channel
    } catch let error as PostgresDeadlineError {
      throw error
    } catch {
      if Self.sqlState(error) == "42501" {
        throw PostgresDeadlineError(
          .refused,
          "\(location.username) may not read \(qualifiedName)_meta at \(location), so cannot follow the table: "
            + "grant it the board's privileges (DeadlineTable.Role.board, or README's PostgreSQL section).")
      }
      throw .wrapping(error, at: location, doing: "reading the channel of \(qualifiedName)")
    }
  }

  /// The SQLSTATE of a server error, if it is one.
  static func sqlState(_ error: any Error) -> String? {
    (error as? PSQLError)?.serverInfo?[.sqlState]
  }

  /// Binds text values and a text array.
  static func binds(_ values: [String], _ array: [String]) throws -> PostgresBindings {
    var bindings = PostgresBindings()
    for value in values { bindings.append(value) }
    bindings.append(array)
    return bindings
  }

  /// A server error's message, or the error.
  static func describe(_ error: any Error) -> String {
    if let error = error as? PSQLError, let message = error.serverInfo?[.message] { return message }
    return "\(error)"
  }
}
