import Foundation
import Testing

/// What the root package's `countdown` (built without CountdownPostgres) says about PostgreSQL, and
/// `countdown board init` on SQLite.
@Suite("countdown without PostgreSQL support")
struct ServerSupportTests {
  @Test(arguments: [
    ["board", "--once", "--db", "postgres://app@db.internal/shop"],
    ["board", "init", "--db", "postgresql://app@db.internal/shop"],
    ["board", "set", "7", "90m", "--db", "postgres://app@db.internal/shop"],
    ["expire", "--db", "postgres://app@db.internal/shop"],
  ])
  func aPostgresURLSaysWhichBuildHasIt(_ arguments: [String]) async throws {
    let result = try await CommandRunner.run(arguments)
    #expect(result.status == 1)
    #expect(result.errors.contains("built without PostgreSQL support"), "\(result.errors)")
    #expect(result.errors.contains("swift build -c release --package-path Examples --product countdown-pg"))
  }

  @Test func expireNeedsAPostgresURL() async throws {
    let result = try await CommandRunner.run(["expire", "--db", "/tmp/orders.sqlite"])
    #expect(result.status == 64)
    #expect(result.errors.contains("--db must be a postgres:// URL"))
  }

  @Test func boardInitCreatesAnSQLiteFile() async throws {
    let path = FileManager.default.temporaryDirectory.appending(path: "countdown-init-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try await CommandRunner.run(["board", "init", "--db", path])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output == "The orders table is ready in \(path).")
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
