import Foundation
import Synchronization

/// Ends the process when it grows past a memory limit, saying which contender was running: a
/// contender that cannot keep up (its queues growing without bound) must not take the machine down.
public enum Watchdog {
  private static let current = Mutex("starting")

  /// Starts checking resident memory five times a second; exits with status 3 above `limitBytes`.
  public static func start(limitBytes: Int) {
    let thread = Thread {
      while true {
        Thread.sleep(forTimeInterval: 0.2)
        // Resident memory only: reading the heap walks every chunk, which would cost the contender
        // under test CPU time inside its window.
        let resident = ProcessStats.residentBytes()
        guard resident > limitBytes else { continue }
        let what = current.withLock { $0 }
        let message = String(
          format: "compare: stopped: resident memory reached %.1f GB (limit %.1f GB) during %@; it does not keep up.\n",
          Double(resident) / 1e9, Double(limitBytes) / 1e9, what)
        FileHandle.standardError.write(Data(message.utf8))
        FileHandle.standardOutput.write(Data(message.utf8))
        exit(3)
      }
    }
    thread.name = "watchdog"
    thread.start()
  }

  /// Says what is running now, for the message.
  static func note(_ what: String) {
    current.withLock { $0 = what }
  }
}
