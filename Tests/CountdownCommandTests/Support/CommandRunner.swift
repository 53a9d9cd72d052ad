import Foundation
import Spawn
import Synchronization
import TestSupport

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
  }

  let child: ChildProcess
  private let output = Mutex(Output())
  private let started = ContinuousClock.now

  /// The `countdown` executable next to the test bundle (SwiftPM builds it for `swift test`), or the
  /// one named by `COUNTDOWN_EXECUTABLE`.
  static let executable: URL = {
    if let path = ProcessInfo.processInfo.environment["COUNTDOWN_EXECUTABLE"] { return URL(fileURLWithPath: path) }
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      packageDirectory().appending(path: ".build/debug"),
    ]
    for case let directory? in candidates {
      let url = directory.appending(path: "countdown")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    preconditionFailure("The countdown executable was not built next to the tests: \(candidates)")
  }()

  /// Starts `countdown` with `arguments`, TZ=UTC and LANG=en_US.UTF-8, stdin from /dev/null, in a
  /// process group of its own that ends with the test process.
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
    let command = launcher + [Self.executable.path] + arguments
    let lines = LineCollector()
    child = try ChildProcess(
      ChildCommand(
        command[0], arguments: Array(command.dropFirst()),
        environment: .inherited().setting(["TZ": "UTC", "LANG": "en_US.UTF-8"].merging(environment) { $1 })),
      output: .capture, errors: .capture, onOutput: lines.handler)
    let start = started
    lines.start { [self] data in
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
    }
  }

  /// The lines printed so far.
  var lines: [Line] { output.withLock { $0.lines } }

  /// The text of the lines printed so far.
  var texts: [String] { lines.map(\.text) }

  /// Everything printed on standard error so far.
  var errors: String { String(decoding: child.errors, as: UTF8.self) }

  /// Whether `countdown` still runs.
  var isRunning: Bool { child.isRunning }

  /// Seconds since the process started.
  var elapsed: Double { (ContinuousClock.now - started).inSeconds }

  /// Waits until `count` lines have arrived or `timeout` seconds have passed.
  func waitForLines(_ count: Int, timeout: Double = 10) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while output.withLock({ $0.lines.count }) < count && ContinuousClock.now < deadline && child.isRunning {
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Waits for the process to exit and everything it printed to be read (at most `timeout` seconds,
  /// then kills it and returns -1), and returns its exit status, or the number of the signal that
  /// ended it.
  func waitForExit(timeout: Double = 10) async throws -> Int32 {
    let child = child
    let ended = await withTaskGroup(of: Termination?.self) { group in
      group.addTask { await child.wait() }
      group.addTask {
        try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
        return nil
      }
      let first = await group.next() ?? nil
      // The group returns once both tasks have: a child that did not end in time is killed.
      if first == nil { child.sendToGroup(SIGKILL) }
      group.cancelAll()
      return first
    }
    guard let ended else { return -1 }
    switch ended {
    case .exited(let status): return status
    case .signalled(let signal): return signal
    }
  }

  /// Sends `signal` to the process and returns when, in seconds since the start.
  @discardableResult
  func send(_ signal: Int32) -> Double {
    child.send(signal)
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

/// Hands a child's standard output to a handler set once the `CommandRunner` exists (the child starts
/// first, so early output waits here).
private final class LineCollector: Sendable {
  private struct State {
    var early: [Data] = []
    var handler: (@Sendable (Data) -> Void)?
  }
  private let state = Mutex(State())

  var handler: @Sendable (ChildProcess.Stream, Data) -> Void {
    { [self] stream, data in
      guard stream == .output else { return }
      // Calls the handler under the lock, so that early pieces and new ones arrive in order.
      state.withLock { state in
        if let handler = state.handler { handler(data) } else { state.early.append(data) }
      }
    }
  }

  func start(_ handler: @escaping @Sendable (Data) -> Void) {
    state.withLock { state in
      for data in state.early { handler(data) }
      state.early = []
      state.handler = handler
    }
  }
}
