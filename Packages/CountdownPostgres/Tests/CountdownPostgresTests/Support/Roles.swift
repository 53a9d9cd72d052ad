import CountdownPostgres
import Foundation
import PostgresNIO
import Synchronization

/// Login roles made for one test (roles belong to the whole cluster, so each gets a name of its own),
/// dropped by ``dropAll()`` after the test's database.
final class TestRoles: Sendable {
  let database: TestDatabase
  private let made = Mutex<[String]>([])

  init(_ database: TestDatabase) {
    self.database = database
  }

  /// A new role that can log in (trusted, as `scripts/postgres-dev` trusts every role but the members of
  /// `password_login`), given `grants` in the test's database (statements with `%` for the role's name),
  /// and where to reach the test's database as it.
  func make(_ label: String, grants: [String] = [], settings: String = "") async throws -> PostgresLocation {
    let name = "cd_\(label)_\(UInt32.random(in: 0...UInt32.max))"
    made.withLock { $0.append(name) }
    try await database.executeOnServer("CREATE ROLE \(name) LOGIN \(settings)")
    for grant in grants { try await database.execute(grant.replacingOccurrences(of: "%", with: name)) }
    var location = database.location
    location.username = name
    return location
  }

  /// Drops the roles (after the database, which holds their privileges, was dropped).
  func dropAll() async {
    for name in made.withLock({ $0 }) { try? await database.executeOnServer("DROP ROLE IF EXISTS \(name)") }
  }
}

/// Keeps every payload that arrives on a channel, from `LISTEN` on a connection of its own.
final class ChannelTap: Sendable {
  private let payloads = Mutex<[String]>([])
  private let task: Mutex<Task<Void, any Error>?> = Mutex(nil)
  private let connection: PostgresConnection
  let channel: String

  private init(connection: PostgresConnection, channel: String) {
    self.connection = connection
    self.channel = channel
  }

  /// Starts listening on `channel` at `location`; returns once `LISTEN` has reached the server (a probe
  /// sent on the channel came back), or throws if it never did.
  static func listen(on channel: String, at location: PostgresLocation, probe: PostgresLocation) async throws
    -> ChannelTap
  {
    let tap = ChannelTap(connection: try await location.connect(applicationName: "countdown-tap"), channel: channel)
    tap.task.withLock {
      $0 = Task {
        try await tap.connection.listen(on: channel) { notifications in
          for try await notification in notifications { tap.payloads.withLock { $0.append(notification.payload) } }
        }
      }
    }
    let prober = try await probe.connect(applicationName: "countdown-tap-probe")
    defer { prober.closeNow() }
    var binds = PostgresBindings()
    binds.append(channel)
    let heard = try await eventually {
      try await prober.query(PostgresQuery(unsafeSQL: "SELECT pg_notify($1, 'probe')", binds: binds), logger: .quiet)
      return tap.payloads.withLock { $0.contains("probe") }
    }
    guard heard else { throw PostgresDeadlineError(.unreachable, "LISTEN \(channel) never heard its probe") }
    tap.payloads.withLock { $0.removeAll() }
    return tap
  }

  /// The payloads heard so far, in order, without the probes (one sent before the first came back may
  /// arrive after `listen` returned).
  var heard: [String] { payloads.withLock { $0.filter { $0 != "probe" } } }

  func stop() {
    task.withLock { $0?.cancel() }
    connection.closeNow()
  }
}

extension PostgresLocation {
  /// The channel of `table`, read as this location's user.
  func channel(of table: DeadlineTable) async throws -> String {
    let connection = try await connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    return try await table.channel(on: connection, at: self)
  }

  /// Runs `sql` here, as this location's user.
  func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws {
    let connection = try await connect(applicationName: "countdown-tests")
    defer { connection.closeNow() }
    try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: .quiet)
  }
}
