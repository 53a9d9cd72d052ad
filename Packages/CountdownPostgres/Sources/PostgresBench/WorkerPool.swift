import Foundation

/// Worker processes, by slot: started with their output to `logs/worker-<slot>.log`, killed with SIGKILL.
/// Used from one task.
final class WorkerPool {
  let binary: URL
  let arguments: [String]
  let logs: URL
  private var processes: [Int: Process] = [:]

  init(binary: URL, arguments: [String], logs: URL) {
    self.binary = binary
    self.arguments = arguments
    self.logs = logs
  }

  /// Starts the worker of `slot` (its log is appended to).
  func start(_ slot: Int) throws {
    let log = logs.appending(path: "worker-\(slot).log")
    if !FileManager.default.fileExists(atPath: log.path) {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    }
    let output = try FileHandle(forWritingTo: log)
    try output.seekToEnd()
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments + ["--worker", "worker-\(slot)-\(UInt16.random(in: 0...UInt16.max))"]
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try output.close()
    processes[slot] = process
  }

  /// Kills the worker of `slot` with SIGKILL and reaps it.
  func kill(_ slot: Int) {
    guard let process = processes.removeValue(forKey: slot) else { return }
    _ = Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Stops every worker (SIGTERM) and waits for them.
  func stopAll() {
    for process in processes.values { process.terminate() }
    for process in processes.values { process.waitUntilExit() }
    processes.removeAll()
  }
}
