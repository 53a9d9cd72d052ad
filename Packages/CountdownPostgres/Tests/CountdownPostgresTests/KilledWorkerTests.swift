import Foundation
import Spawn
import Testing

extension ServerTests {
  /// The short version of the exactly-once measurement: real `countdown-pg expire` processes, killed with
  /// SIGKILL and restarted (`scripts/postgres-bench expire` runs the long one). The harness is the
  /// benchmark's own (`PostgresBench expire`), which checks every promise and exits with 1 if one broke.
  @Suite("Workers killed with SIGKILL")
  struct KilledWorkerTests {
    /// An executable built next to the tests.
    static func built(_ name: String) -> URL? {
      let candidates = [
        Bundle.main.executableURL?.deletingLastPathComponent(),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      ]
      for case let directory? in candidates {
        let url = directory.appending(path: name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      }
      return nil
    }

    @Test func eachDeadlineExpiresOnceAndEveryFollowUpRunsWhileWorkersAreKilled() async throws {
      guard let bench = Self.built("PostgresBench"), let countdown = Self.built("countdown-pg"),
        let url = TestServer.url
      else {
        Issue.record("PostgresBench and countdown-pg were not built next to the tests (run swift build first)")
        return
      }
      // Lateness is checked loosely here (tests run in parallel, in debug); the full run holds it to 1 s.
      let arguments = [
        "expire", "--url", url, "--workers", "3", "--deadlines", "200", "--seconds", "3", "--kill-every", "0.8",
        "--lease", "1s", "--p99-limit", "3000", "--binary", countdown.path,
      ]
      let result = try await ChildProcess.run(
        ChildCommand(bench.path, arguments: arguments), errors: .sameAsOutput, timeout: .seconds(300))
      let text = result.outputText
      print(text)
      #expect(result.termination == .exited(0), "\(text)")
      #expect(text.contains("expired more than once 0, early 0"))
      #expect(text.contains("workers killed and restarted"))
    }
  }
}
