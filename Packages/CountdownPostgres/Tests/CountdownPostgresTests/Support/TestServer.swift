import CountdownPostgres
import Foundation
import PostgresNIO
import Testing

/// The PostgreSQL server the integration tests use: `COUNTDOWN_POSTGRES_URL`, or none (then they are
/// skipped, and Swift Testing prints ``skipReason``).
enum TestServer {
  static let url: String? = ProcessInfo.processInfo.environment["COUNTDOWN_POSTGRES_URL"].flatMap {
    $0.isEmpty ? nil : $0
  }

  static var isConfigured: Bool { url != nil }

  static let skipReason: Comment =
    "no server: set COUNTDOWN_POSTGRES_URL (export COUNTDOWN_POSTGRES_URL=$(scripts/postgres-dev start))"

  /// The path of the server's TLS certificate (self-signed by `scripts/postgres-dev`), if the server
  /// accepts TLS and the file can be read here.
  static func certificate() async -> String? {
    guard let url, let server = try? PostgresLocation(url: url),
      let connection = try? await server.connect(applicationName: "countdown-tests")
    else { return nil }
    defer { connection.closeNow() }
    var settings: [String] = []
    guard
      let rows = try? await connection.query(
        "SELECT current_setting('ssl'), current_setting('ssl_cert_file')", logger: .quiet
      ).decode((String, String).self)
    else { return nil }
    do {
      for try await (ssl, file) in rows { settings = [ssl, file] }
    } catch {
      return nil
    }
    guard settings.count == 2, settings[0] == "on", FileManager.default.isReadableFile(atPath: settings[1]) else {
      return nil
    }
    return settings[1]
  }

  /// A new, empty database for one test; drop it with ``TestDatabase/drop()``.
  static func freshDatabase(_ label: String) async throws -> TestDatabase {
    guard let url else { throw PostgresDeadlineError(.badURL, "COUNTDOWN_POSTGRES_URL is not set") }
    let server = try PostgresLocation(url: url)
    var location = server
    location.database = "cd_\(label)_\(UInt32.random(in: 0...UInt32.max))"
    let admin = try await server.connect(applicationName: "countdown-tests")
    try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(location.database)"), logger: .quiet)
    try await admin.close()
    return TestDatabase(location: location, server: server)
  }
}

/// A database made for one test.
struct TestDatabase: Sendable {
  /// The test's database.
  var location: PostgresLocation
  /// The server's own database, where this one is created and dropped.
  var server: PostgresLocation

  /// The URL of the test's database.
  var url: String { "postgres://\(location.username)@\(location.host):\(location.port)/\(location.database)" }

  /// Runs `sql` in the test's database.
  func execute(_ sql: String) async throws {
    let connection = try await location.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet)
  }

  /// Runs `sql` in the server's own database (for roles, which belong to the whole cluster).
  func executeOnServer(_ sql: String) async throws {
    let connection = try await server.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet)
  }

  /// The integers `sql` returns, one per row.
  func integers(_ sql: String) async throws -> [Int64] {
    let connection = try await location.connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    var values: [Int64] = []
    for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet).decode(Int64.self)
    {
      values.append(value)
    }
    return values
  }

  /// Ends the server processes of the connections named `applicationName` (as a failing network would).
  @discardableResult
  func terminate(applicationName: String) async throws -> Int {
    let terminated = try await integers(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(applicationName)'")
    return Int(terminated.first ?? 0)
  }

  /// The server processes of the connections named `applicationName`.
  func backends(applicationName: String) async throws -> [Int32] {
    try await integers("SELECT pid FROM pg_stat_activity WHERE application_name = '\(applicationName)'").map {
      Int32(truncatingIfNeeded: $0)
    }
  }

  /// Drops the database, ending its connections.
  func drop() async {
    guard let admin = try? await server.connect(applicationName: "countdown-tests") else { return }
    _ = try? await admin.query(
      PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: .quiet)
    _ = try? await admin.close()
  }
}

extension PostgresConnection {
  /// Closes without waiting, keeping the connection alive until it is closed.
  func closeNow() {
    close().whenComplete { _ in _ = self }
  }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout`; whether it held.
func eventually(within timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return try await condition()
}
