import Foundation
import TestSupport
import Testing

/// Continuations are resumed, yielded to and finished with no lock held (the DocC article Locks): the
/// package does it only through `resumeUnlocked`, `yieldUnlocked` and `finishUnlocked` (Lock.swift),
/// which trap in debug builds when the calling thread holds a lock. This test reads the sources and
/// fails on any other call of `resume`, `yield` or `finish` on a value.
@Suite struct ContinuationTests {
  static let sources = packageDirectory().appendingPathComponent("Sources")

  /// Calls of those names that do not touch a continuation, by file: each says what it calls.
  static let others: [String: [String]] = [
    // `Task.yield()`: lets other tasks run between two steps of the driver.
    "CountdownKit/Engine/Driver/CountdownEngine+Driver.swift": ["Task.yield("],
    // `FinishEvents.yield(_:)`, which yields to its sequences through `yieldUnlocked`.
    "CountdownKit/Board/BoardRows.swift": ["events.yield("],
    // A display class's table calling a subscriber's completion.
    "CountdownKit/Engine/Delivery/MainSide.swift": ["table.finish("],
  ]

  @Test func everyContinuationIsResumedThroughTheUnlockedMethods() throws {
    let call = try Regex(#"[A-Za-z0-9_)?\]]\.(resume|yield|finish)\s*\("#)
    var checked = 0
    for module in ["CountdownKit", "CountdownTesting", "CountdownCombine"] {
      let folder = Self.sources.appendingPathComponent(module)
      let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      for file in files where file.hasSuffix(".swift") && file != "Lock.swift" {
        let path = "\(module)/\(file)"
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        checked += 1
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for match in line.matches(of: call) {
            let allowed = Self.others[path, default: []].contains { line.contains($0) }
            #expect(allowed, "\(path): `\(line[match.range])` touches a continuation without the unlocked check")
          }
        }
      }
    }
    #expect(checked > 50, "the sources were read (\(checked) files)")
  }
}
