import Foundation
import Spawn
import Synchronization

/// Runs the built `countdown` binary on a pseudo-terminal, as a person would in a terminal window.
///
/// The terminal is made by `script` (util-linux), which runs a small shell script on it: the shell
/// sets the size, saves `stty -g`, runs `countdown` in the foreground (so Ctrl-C typed on the
/// terminal reaches it as SIGINT), then saves `stty -g` again. Bytes typed with ``type(_:)`` go to
/// the terminal as keyboard input; everything `countdown` writes to the terminal is collected in
/// ``output``.
///
/// Under `swift test -c release` the binary is the release build: CI runs both.
final class PseudoTerminal: Sendable {
  /// How `countdown` ended, and the terminal settings around it.
  struct Result: Sendable {
    /// Its exit status, or nil if it never ended (it was killed after the timeout).
    var status: Int32?
    /// `stty -g` before it started and after it ended.
    var before: String
    var after: String
    /// Everything written to the terminal.
    var output: Data
  }

  let directory: URL
  private let child: ChildProcess

  /// Starts `countdown arguments` on a `columns`×`rows` terminal, with TZ=UTC, LANG=en_US.UTF-8,
  /// TERM=xterm-256color and `environment`, in `workingDirectory` (a new temporary one by default).
  init(
    _ arguments: [String], columns: Int = 100, rows: Int = 30, environment: [String: String] = [:],
    workingDirectory: URL? = nil
  ) throws {
    directory =
      workingDirectory ?? FileManager.default.temporaryDirectory.appending(path: "countdown-pty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let command = ([CommandRunner.executable.path] + arguments).map(Self.quoted).joined(separator: " ")
    let shell = """
      trap 'true' INT QUIT
      stty rows \(rows) cols \(columns)
      stty -g > '\(directory.path)/before'
      sh -c 'echo $$ > "\(directory.path)/pid"; exec "$@"' countdown \(command)
      echo $? > '\(directory.path)/status'
      stty -g > '\(directory.path)/after'
      """
    try Data(shell.utf8).write(to: directory.appending(path: "run.sh"))
    child = try ChildProcess(
      ChildCommand(
        "/usr/bin/script",
        arguments: ["--quiet", "--return", "--flush", "--echo", "never", "--command", "sh run.sh", "/dev/null"],
        environment: .inherited().setting(
          ["TZ": "UTC", "LANG": "en_US.UTF-8", "TERM": "xterm-256color"].merging(environment) { $1 }),
        workingDirectory: directory.path),
      input: .pipe, output: .capture, errors: .sameAsOutput)
  }

  /// Everything written to the terminal so far.
  var output: Data { child.output }

  /// The output so far as text (invalid UTF-8 repaired).
  var text: String { String(decoding: output, as: UTF8.self) }

  /// Waits until the output contains `marker` (at most `timeout` seconds); returns whether it did.
  @discardableResult
  func wait(for marker: String, timeout: Double = 10) async throws -> Bool {
    try await wait(timeout: timeout) { self.output.range(of: Data(marker.utf8)) != nil }
  }

  /// Waits until `condition` holds (at most `timeout` seconds); returns whether it did.
  func wait(timeout: Double, until condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1_000))
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

  /// Types `text` on the terminal's keyboard (`"\u{3}"` is Ctrl-C).
  func type(_ text: String) {
    try? child.write(Array(text.utf8))
  }

  /// The process id of `countdown`, once it has started.
  var pid: Int32? {
    let text = try? String(contentsOf: directory.appending(path: "pid"), encoding: .utf8)
    return text.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Sends `signal` to `countdown` (not to the shell around it).
  func send(_ signal: Int32) {
    if let pid { kill(pid, signal) }
  }

  /// Waits for everything to end (at most `timeout` seconds, then kills it) and returns the result.
  func finish(timeout: Double = 10) async throws -> Result {
    let ended = try await wait(timeout: timeout) { !child.isRunning }
    if !ended {
      send(SIGKILL)
      child.sendToGroup(SIGKILL)
    }
    _ = await child.wait()
    child.closeInput()
    func read(_ name: String) -> String {
      let text = try? String(contentsOf: directory.appending(path: name), encoding: .utf8)
      return text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
    let status = ended ? Int32(read("status")) : nil
    return Result(status: status, before: read("before"), after: read("after"), output: output)
  }

  /// `text` in single quotes for `sh`.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
