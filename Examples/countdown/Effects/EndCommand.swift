import Foundation

/// `--exec`: a shell command run once each time a countdown reaches zero, through `/bin/sh -c`, with
/// the countdown's title and end date in its environment. The command's output goes where the
/// countdown's would; the countdown does not wait for it, except at exit (``waitForAll()``).
@MainActor
final class EndCommand {
  let command: String
  private var running: [Process] = []

  init(_ command: String) {
    self.command = command
  }

  /// Runs the command for the countdown `index` of `count` titled `title` that ended at `end`.
  func run(title: String?, end: Date, index: Int, count: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var environment = ProcessInfo.processInfo.environment
    environment["COUNTDOWN_TITLE"] = title ?? ""
    environment["COUNTDOWN_END"] = end.formatted(.iso8601)
    environment["COUNTDOWN_INDEX"] = "\(index + 1)"
    environment["COUNTDOWN_COUNT"] = "\(count)"
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
      running.append(process)
    } catch {
      FileHandle.standardError.write(Data("countdown: --exec could not start /bin/sh: \(error)\n".utf8))
    }
    running.removeAll { !$0.isRunning }
  }

  /// Waits until every command started has finished.
  func waitForAll() {
    for process in running { process.waitUntilExit() }
    running.removeAll()
  }
}
