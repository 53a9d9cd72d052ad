import Foundation
import Spawn

/// Worker processes, by slot: started with their output appended to `logs/worker-<slot>.log`, killed
/// with SIGKILL. Used from one task.
final class WorkerPool {
  let binary: URL
  let arguments: [String]
  let logs: URL
  private var workers: [Int: ChildProcess] = [:]

  init(binary: URL, arguments: [String], logs: URL) {
    self.binary = binary
    self.arguments = arguments
    self.logs = logs
  }

  /// Starts the worker of `slot` (its log is appended to).
  func start(_ slot: Int) throws {
    let log = logs.appending(path: "worker-\(slot).log").path
    let name = "worker-\(slot)-\(UInt16.random(in: 0...UInt16.max))"
    workers[slot] = try ChildProcess(
      ChildCommand(binary.path, arguments: arguments + ["--worker", name]), output: .appending(toFile: log),
      errors: .sameAsOutput)
  }

  /// Kills the worker of `slot` with SIGKILL and reaps it.
  func kill(_ slot: Int) async {
    guard let worker = workers.removeValue(forKey: slot) else { return }
    worker.send(SIGKILL)
    _ = await worker.wait()
  }

  /// Stops every worker (SIGTERM) and waits for them.
  func stopAll() async {
    for worker in workers.values { worker.send(SIGTERM) }
    for worker in workers.values { _ = await worker.wait() }
    workers.removeAll()
  }
}
