import CountdownPostgres
import Foundation

/// A PostgreSQL cluster of one test's own (`scripts/postgres-dev` in a folder and on a port of its own),
/// for what must not happen to the server the other tests share: a restart.
struct PrivateCluster {
  let directory: String
  let port: Int
  let url: String

  /// `scripts/postgres-dev` of this repository.
  static let script = DocumentationBlockTests.package.deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "scripts/postgres-dev").path

  /// Starts a cluster on a free loopback port.
  static func start() throws -> PrivateCluster {
    let directory = "/tmp/countdown-private-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
    let port = try freePort()
    let output = try run(["start"], directory: directory, port: port)
    guard output.status == 0, let url = output.text.split(separator: "\n").last.map(String.init) else {
      throw PostgresDeadlineError(.unreachable, "scripts/postgres-dev start failed: \(output.text)")
    }
    return PrivateCluster(directory: directory, port: port, url: url)
  }

  /// Restarts the server (`pg_ctl restart -m fast`): every connection is cut.
  func restart() throws {
    let output = try Self.run(["restart"], directory: directory, port: port)
    guard output.status == 0 else { throw PostgresDeadlineError(.unreachable, "restart failed: \(output.text)") }
  }

  /// Stops the server and deletes its folder.
  func stop() {
    _ = try? Self.run(["stop"], directory: directory, port: port)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Runs the script to its end (posix_spawn and waitpid: Foundation's `Process` sometimes never saw
  /// this script end, the server it starts living on), its output going to a file read afterwards.
  private static func run(_ arguments: [String], directory: String, port: Int) throws -> (status: Int32, text: String) {
    let log = "\(directory)/postgres-dev-\(UUID().uuidString).log"
    var environment = ProcessInfo.processInfo.environment
    environment["COUNTDOWN_POSTGRES_DIR"] = "\(directory)/cluster"
    environment["COUNTDOWN_POSTGRES_PORT"] = String(port)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([script] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, script, &actions, nil, argv, envp)
    guard spawned == 0 else { throw PostgresDeadlineError(.unreachable, "cannot run \(script): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: log)
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : -1, text.trimmingCharacters(in: .whitespacesAndNewlines))
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
