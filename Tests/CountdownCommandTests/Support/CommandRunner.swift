import Foundation
import Synchronization

/// Runs the built `countdown` binary and collects its output with the time each line arrived.
final class CommandRunner: Sendable {
  /// A line of standard output and when it arrived, in seconds since the process started.
  struct Line: Sendable, Equatable {
    var text: String
    var time: Double
  }

  private struct Output {
    var pending = Data()
    var lines: [Line] = []
    var errors = Data()
    /// Whether standard output and standard error reached their end.
    var outputEnded = false
    var errorsEnded = false
  }

  let process = Process()
  private let output = Mutex(Output())
  private let started = ContinuousClock.now

  /// The `countdown` executable next to the test bundle (SwiftPM builds it for `swift test`), or the
  /// one named by `COUNTDOWN_EXECUTABLE`.
  static let executable: URL = {
    if let path = ProcessInfo.processInfo.environment["COUNTDOWN_EXECUTABLE"] { return URL(fileURLWithPath: path) }
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: ".build/debug"),
    ]
    for case let directory? in candidates {
      let url = directory.appending(path: "countdown")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    preconditionFailure("The countdown executable was not built next to the tests: \(candidates)")
  }()

  /// Starts `countdown` with `arguments`, TZ=UTC and LANG=en_US.UTF-8, stdin from /dev/null.
  ///
  /// `onLine` is called with each line's index on the thread that reads the output, not on the
  /// Swift concurrency pool, so that signals sent from it go out at once even while other tests
  /// keep the pool busy.
  /// `launcher` runs the binary through another program: `["/usr/bin/setpriv", "--reuid=65534", …]`.
  init(
    _ arguments: [String],
    environment: [String: String] = [:],
    launcher: [String] = [],
    onLine: (@Sendable (Int, CommandRunner) -> Void)? = nil
  ) throws {
    if let program = launcher.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = launcher.dropFirst() + [Self.executable.path] + arguments
    } else {
      process.executableURL = Self.executable
      process.arguments = arguments
    }
    var base = ProcessInfo.processInfo.environment
    base["TZ"] = "UTC"
    base["LANG"] = "en_US.UTF-8"
    process.environment = base.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let start = started
    out.fileHandleForReading.readabilityHandler = { [self] handle in
      let data = handle.availableData
      let time = (ContinuousClock.now - start).inSeconds
      let newLines = output.withLock { output in
        let first = output.lines.count
        output.pending.append(data)
        while let newline = output.pending.firstIndex(of: 0x0A) {
          let text = String(decoding: output.pending[output.pending.startIndex..<newline], as: UTF8.self)
          output.lines.append(Line(text: text, time: time))
          output.pending.removeSubrange(output.pending.startIndex...newline)
        }
        return first..<output.lines.count
      }
      for index in newLines { onLine?(index, self) }
      if data.isEmpty {
        handle.readabilityHandler = nil
        output.withLock { $0.outputEnded = true }
      }
    }
    err.fileHandleForReading.readabilityHandler = { [self] handle in
      let data = handle.availableData
      output.withLock { output in
        output.errors.append(data)
        if data.isEmpty { output.errorsEnded = true }
      }
      if data.isEmpty { handle.readabilityHandler = nil }
    }
    try process.run()
  }

  /// The lines printed so far.
  var lines: [Line] { output.withLock { $0.lines } }

  /// The text of the lines printed so far.
  var texts: [String] { lines.map(\.text) }

  /// Everything printed on standard error so far.
  var errors: String { output.withLock { String(decoding: $0.errors, as: UTF8.self) } }

  /// Seconds since the process started.
  var elapsed: Double { (ContinuousClock.now - started).inSeconds }

  /// Waits until `count` lines have arrived or `timeout` seconds have passed.
  func waitForLines(_ count: Int, timeout: Double = 10) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while output.withLock({ $0.lines.count }) < count && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Waits for the process to exit (at most `timeout` seconds, then kills it) and returns its status.
  func waitForExit(timeout: Double = 10) async throws -> Int32 {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while process.isRunning && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return -1
    }
    process.waitUntilExit()
    // Let the pipe handlers read what was written before the exit, to its end (a loaded machine can be
    // slow to run them: a fixed pause lost the end of a long listing).
    let drained = ContinuousClock.now + .seconds(5)
    while !output.withLock({ $0.outputEnded && $0.errorsEnded }) && ContinuousClock.now < drained {
      try await Task.sleep(for: .milliseconds(10))
    }
    return process.terminationStatus
  }

  /// Sends `signal` to the process and returns when, in seconds since the start.
  @discardableResult
  func send(_ signal: Int32) -> Double {
    kill(process.processIdentifier, signal)
    return elapsed
  }

  /// Runs `countdown` to completion and returns its status, standard output and standard error.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], launcher: [String] = [], timeout: Double = 10
  ) async throws -> (status: Int32, output: String, errors: String) {
    let runner = try CommandRunner(arguments, environment: environment, launcher: launcher)
    let status = try await runner.waitForExit(timeout: timeout)
    return (status, runner.texts.joined(separator: "\n"), runner.errors)
  }
}

extension Duration {
  /// This duration in seconds, as a `Double` (for test tolerances).
  var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
