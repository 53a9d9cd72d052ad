import CountdownPostgres
import Foundation
import PostgresNIO
import Spawn

/// A database made for one run of a scenario.
struct BenchDatabase {
  var location: PostgresLocation
  var server: PostgresLocation

  /// Creates `cd_bench_<label>_<random>` on the server at `url`. The scenarios talk to a local server
  /// without TLS, whatever the URL says, so that runs compare with each other and with the figures in
  /// Benchmarks/README.md.
  static func create(_ label: String, url: String) async throws -> BenchDatabase {
    var server = try PostgresLocation(url: url)
    server.tls = .disable
    var location = server
    location.database = "cd_bench_\(label)_\(UInt32.random(in: 0...UInt32.max))"
    let admin = try await server.connect(applicationName: "countdown-bench")
    try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(location.database)"), logger: .quiet)
    try await admin.close()
    return BenchDatabase(location: location, server: server)
  }

  /// Runs `body` with a database of its own, dropped afterwards whatever happens.
  static func with(_ label: String, url: String, _ body: (BenchDatabase) async throws -> Void) async throws {
    let database = try await create(label, url: url)
    do {
      try await body(database)
    } catch {
      await database.drop()
      throw error
    }
    await database.drop()
  }

  /// The URL of the scenario's database, without TLS (a password comes from the environment or the
  /// password file, as for any libpq program).
  var url: String {
    "postgres://\(location.username)@\(location.host):\(location.port)/\(location.database)?sslmode=disable"
  }

  /// The integers `sql` returns, one per row.
  func integers(_ sql: String) async throws -> [Int64] {
    let connection = try await location.connect(applicationName: "countdown-bench")
    var values: [Int64] = []
    for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet).decode(Int64.self)
    {
      values.append(value)
    }
    try await connection.close()
    return values
  }

  /// The pairs of integers `sql` returns, one per row.
  func pairs(_ sql: String) async throws -> [(Int64, Int64)] {
    let connection = try await location.connect(applicationName: "countdown-bench")
    var values: [(Int64, Int64)] = []
    for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet).decode(
      (Int64, Int64).self)
    {
      values.append(value)
    }
    try await connection.close()
    return values
  }

  /// Runs `sql`.
  func execute(_ sql: String) async throws {
    let connection = try await location.connect(applicationName: "countdown-bench")
    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet)
    try await connection.close()
  }

  /// Ends the connections named `applicationName`; how many.
  @discardableResult
  func terminate(applicationName: String) async throws -> Int {
    let ended = try await integers(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(applicationName)'")
    return Int(ended.first ?? 0)
  }

  func drop() async {
    guard let admin = try? await server.connect(applicationName: "countdown-bench") else { return }
    _ = try? await admin.query(
      PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: .quiet)
    _ = try? await admin.close()
  }
}

/// The value at quantile `q` (0...1) of sorted `values` (nearest rank), or nil when empty.
func quantile<T>(_ values: [T], _ q: Double) -> T? {
  guard !values.isEmpty else { return nil }
  let rank = Int((q * Double(values.count)).rounded(.up)) - 1
  return values[max(0, min(values.count - 1, rank))]
}

/// The process's resident memory in bytes (Linux: /proc/self/statm), or nil elsewhere.
func residentBytes() -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The processor time this process has used (user and system, all threads), in seconds.
func processorSeconds() -> Double {
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Milliseconds in a duration.
func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

/// Runs a shell command (a server restart) to its end; its exit status (-1 if killed by a signal).
func shell(_ command: String) async throws -> Int32 {
  let result = try await ChildProcess.run(.shell(command), output: .inherit, errors: .inherit)
  return if case .exited(let status) = result.termination { status } else { -1 }
}

/// "12.3" for a number of milliseconds (or "-").
func format(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }

/// Prints a line at once.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
