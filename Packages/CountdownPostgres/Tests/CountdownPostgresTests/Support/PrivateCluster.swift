import CountdownPostgres
import Foundation
import Spawn

/// A PostgreSQL cluster of one test's own (`scripts/postgres-dev` in a folder and on a port of its own),
/// for what must not happen to the server the other tests share: a restart.
struct PrivateCluster {
  let directory: String
  let port: Int
  let url: String

  /// `scripts/postgres-dev` of this repository.
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "scripts/postgres-dev").path

  /// Starts a cluster on a free loopback port.
  static func start() async throws -> PrivateCluster {
    let directory = "/tmp/countdown-private-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
    let port = try freePort()
    let output = try await run(["start"], directory: directory, port: port)
    guard output.status == 0, let url = output.text.split(separator: "\n").last.map(String.init) else {
      throw PostgresDeadlineError(.unreachable, "scripts/postgres-dev start failed: \(output.text)")
    }
    return PrivateCluster(directory: directory, port: port, url: url)
  }

  /// Restarts the server (`pg_ctl restart -m fast`): every connection is cut.
  func restart() async throws {
    let output = try await Self.run(["restart"], directory: directory, port: port)
    guard output.status == 0 else { throw PostgresDeadlineError(.unreachable, "restart failed: \(output.text)") }
  }

  /// Stops the server and deletes its folder.
  func stop() async {
    _ = try? await Self.run(["stop"], directory: directory, port: port)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Runs the script to its end and returns its exit status (-1 after a signal) and output. The server
  /// it starts leaves the script's process group and lives on, holding the output open: the output is
  /// read until the script ends.
  private static func run(_ arguments: [String], directory: String, port: Int) async throws -> (
    status: Int32, text: String
  ) {
    let environment = ChildEnvironment.inherited().setting([
      "COUNTDOWN_POSTGRES_DIR": "\(directory)/cluster", "COUNTDOWN_POSTGRES_PORT": String(port),
    ])
    let result = try await ChildProcess.run(
      ChildCommand(script, arguments: arguments, environment: environment), errors: .sameAsOutput,
      timeout: .seconds(120))
    let status: Int32 = if case .exited(let status) = result.termination { status } else { -1 }
    return (status, result.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// A loopback port nothing listens on now (the kernel's pick for an ephemeral bind).
  private static func freePort() throws -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw PostgresDeadlineError(.unreachable, "no socket for a free port") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
      }
    }
    guard bound else { throw PostgresDeadlineError(.unreachable, "no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
