import CProcessStats
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reading of what the whole process has used so far: CPU time, context switches, memory.
public struct ProcessStats: Sendable {
  /// User plus system CPU time of every thread, in seconds.
  public var cpuSeconds: Double
  /// Voluntary context switches of every thread: each one is a thread going to sleep, so the
  /// number of times some thread of the process woke up again.
  public var voluntarySwitches: Int
  /// Resident memory, in bytes (`/proc/self/statm`; 0 where there is none).
  public var residentBytes: Int
  /// Bytes malloc has handed out and not taken back (0 where malloc does not say).
  public var heapBytes: Int
  /// Real time, in seconds, on a monotonic clock.
  public var wallSeconds: Double

  /// The process now.
  public static func now() -> ProcessStats {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
    return ProcessStats(
      cpuSeconds: cpu, voluntarySwitches: Int(usage.ru_nvcsw), residentBytes: residentBytes(),
      heapBytes: Int(cps_heap_bytes_in_use()), wallSeconds: ContinuousClock.now.secondsSinceBoot)
  }

  /// Gives free heap memory back to the system, so that the next memory reading starts low.
  public static func trimHeap() {
    cps_trim_heap()
  }

  /// Prints malloc's statistics, arena by arena, on standard error (glibc's `malloc_stats`): how much
  /// of the memory each arena took from the system is in use.
  public static func printMallocStats() {
    cps_malloc_stats()
  }

  /// Resident memory alone: cheap, unlike `now()`, whose heap reading walks the whole heap.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

extension ContinuousClock.Instant {
  /// Seconds since an arbitrary fixed origin (for differences only).
  var secondsSinceBoot: Double {
    ContinuousClock.Instant.origin.duration(to: self).seconds
  }

  static let origin = ContinuousClock.now
}

extension Duration {
  /// This duration in seconds.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
