import Foundation
import Spawn

/// `--exec`: a shell command run once each time a countdown reaches zero, through `/bin/sh -c`, with
/// the countdown's title and end date in its environment (and without `PGPASSWORD`). The command's
/// output goes where the countdown's would; the countdown does not wait for it, except at exit
/// (``waitForAll()``). A command still running after `--exec-timeout` is ended with its process group
/// (SIGTERM, then SIGKILL 2 s later); if the countdown is ended by a signal, its commands end with it.
@MainActor
final class EndCommand {
  /// `--exec-timeout`'s default.
  nonisolated static let defaultTimeout = Duration.seconds(600)

  let command: String
  let timeout: Duration
  private var running: [Task<Void, Never>] = []

  init(_ command: String, timeout: Duration = defaultTimeout) {
    self.command = command
    self.timeout = timeout
  }

  /// Runs the command for the countdown `index` of `count` titled `title` that ended at `end`.
  func run(title: String?, end: Date, index: Int, count: Int) {
    let environment = ChildEnvironment.inherited().setting([
      "COUNTDOWN_TITLE": title ?? "",
      "COUNTDOWN_END": end.formatted(.iso8601),
      "COUNTDOWN_INDEX": "\(index + 1)",
      "COUNTDOWN_COUNT": "\(count)",
    ])
    let command = ChildCommand.shell(command, environment: environment)
    let timeout = timeout
    running.append(
      Task {
        do {
          let result = try await ChildProcess.run(command, output: .inherit, errors: .inherit, timeout: timeout)
          if result.timedOut {
            Self.report("--exec was still running after --exec-timeout \(timeout.components.seconds)s and was ended")
          }
        } catch {
          Self.report("--exec could not start: \(error)")
        }
      })
  }

  /// Waits until every command started has finished (or been ended by its timeout).
  func waitForAll() async {
    for task in running { await task.value }
    running.removeAll()
  }

  private nonisolated static func report(_ problem: String) {
    FileHandle.standardError.write(Data("countdown: \(problem)\n".utf8))
  }
}
