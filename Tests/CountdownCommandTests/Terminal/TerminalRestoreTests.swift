import Foundation
import Testing

/// Every way out of the live views leaves the terminal exactly as it found it: `stty -g` before and
/// after are identical. Run on the binary `swift test` built; CI runs the suite in release too,
/// which is where Swift 6.3.1 once zeroed the saved settings (Reproducers/OptionalTupleInMutex.swift).
@Suite("The terminal is restored on every way out")
struct TerminalRestoreTests {
  /// The ways out: what to do once the live view is up, and the exit status it must give.
  enum WayOut: String, CaseIterable, Sendable {
    case q, ctrlC, sigterm, sighup, sigquit, end, suspendAndContinue

    func leave(_ terminal: PseudoTerminal) async throws {
      switch self {
      case .q: terminal.type("q")
      case .ctrlC: terminal.type("\u{3}")
      case .sigterm: terminal.send(SIGTERM)
      case .sighup: terminal.send(SIGHUP)
      case .sigquit: terminal.send(SIGQUIT)
      case .end: break
      case .suspendAndContinue:
        terminal.send(SIGTSTP)
        try await Task.sleep(for: .milliseconds(300))
        terminal.send(SIGCONT)
        try await Task.sleep(for: .milliseconds(300))
        terminal.type("q")
      }
    }

    /// The status of a countdown of an hour (or of a second, for `.end`) left this way: `q` before
    /// zero is 3 (see `countdown help run`).
    var status: Int32 {
      switch self {
      case .end: 0
      case .q, .suspendAndContinue: 3
      case .ctrlC: 130
      case .sigterm: 143
      case .sighup: 129
      case .sigquit: 131
      }
    }

    /// The status of the board left this way: `q` is its normal end.
    var boardStatus: Int32 { self == .q ? 0 : status }
  }

  @Test("The live countdown restores stty -g", arguments: WayOut.allCases)
  func liveCountdown(wayOut: WayOut) async throws {
    let terminal = try PseudoTerminal([wayOut == .end ? "1s" : "1h", "--title", "Tea"])
    #expect(try await terminal.wait(for: "Tea"), "the live view came up: \(terminal.text.suffix(300))")
    try await wayOut.leave(terminal)
    let result = try await terminal.finish()
    #expect(result.status == wayOut.status, "output: \(String(decoding: result.output.suffix(300), as: UTF8.self))")
    #expect(!result.before.isEmpty)
    #expect(result.after == result.before, "stty -g before and after \(wayOut)")
    let text = String(decoding: result.output, as: UTF8.self)
    #expect(text.contains("\u{1B}[?25h\u{1B}[?1049l"), "cursor shown and the normal screen back")
  }

  @Test("The live board restores stty -g", arguments: [WayOut.q, .ctrlC, .sigterm, .sighup])
  func liveBoard(wayOut: WayOut) async throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "countdown-pty-\(UUID().uuidString)")
    let terminal = try PseudoTerminal(
      ["board", "--db", directory.appending(path: "orders.sqlite").path, "--seed", "20"],
      workingDirectory: directory)
    #expect(try await terminal.wait(for: "Orders"), "the board came up: \(terminal.text.suffix(300))")
    try await wayOut.leave(terminal)
    let result = try await terminal.finish()
    #expect(result.status == wayOut.boardStatus)
    #expect(!result.before.isEmpty)
    #expect(result.after == result.before, "stty -g before and after \(wayOut)")
  }
}
