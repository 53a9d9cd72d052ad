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

    /// `countdown-pg`, which Examples/Package.swift builds: the one `COUNTDOWN_PG` names, else one next to
    /// the tests (a build that shares their scratch path, as CI's), else that package's own build in the
    /// tests' configuration (`Examples/.build/debug/countdown-pg` for a debug build of the tests); nil,
    /// with an issue recorded that says how to build it, when there is none.
    static func countdownPG() -> URL? {
      if let path = ProcessInfo.processInfo.environment["COUNTDOWN_PG"], !path.isEmpty {
        if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        Issue.record("COUNTDOWN_PG names no executable: \(path)")
        return nil
      }
      if let url = built("countdown-pg") { return url }
      let configuration = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
        .deletingLastPathComponent().lastPathComponent
      var repository = URL(fileURLWithPath: #filePath)
      for _ in 0..<5 { repository.deleteLastPathComponent() }
      let url = repository.appending(path: "Examples/.build/\(configuration)/countdown-pg")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      Issue.record(
        """
        No countdown-pg next to the tests nor at \(url.path): build it with \
        `swift build --package-path Examples --product countdown-pg` (-c release for a release build of the \
        tests), or set COUNTDOWN_PG to one.
        """)
      return nil
    }

    @Test func eachDeadlineExpiresOnceAndEveryFollowUpRunsWhileWorkersAreKilled() async throws {
      guard let url = TestServer.url, let countdown = Self.countdownPG() else { return }
      guard let bench = Self.built("PostgresBench") else {
        Issue.record("PostgresBench was not built next to the tests (run swift build --build-tests first)")
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
