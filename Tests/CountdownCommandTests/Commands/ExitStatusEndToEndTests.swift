import Foundation
import Spawn
import Testing

/// The exit statuses of `countdown help run`, each on the built binary under a pty (the release binary
/// under `swift test -c release`), with the terminal restored: `stty -g` before and after are equal.
@Suite("Exit statuses end to end")
struct ExitStatusEndToEndTests {
  /// A run: the arguments, what to wait for on the screen, what to type or send then, and the status.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var waitFor: String?
    var action: Action
    var status: Int32

    enum Action: Sendable {
      case nothing
      case type(String)
      case signal(Int32)
    }

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "zero reached", arguments: ["1s"], waitFor: nil, action: .nothing, status: 0),
    Case(name: "a sequence ran out", arguments: ["1s", "1s"], waitFor: nil, action: .nothing, status: 0),
    Case(name: "q before zero", arguments: ["1h"], waitFor: "ends", action: .type("q"), status: 3),
    Case(name: "Esc before zero", arguments: ["1h"], waitFor: "ends", action: .type("\u{1B}"), status: 3),
    Case(
      name: "q part-way through a sequence", arguments: ["1s", "1h", "1h"], waitFor: "2/3", action: .type("q"),
      status: 3),
    Case(name: "q on a stopwatch", arguments: ["--up"], waitFor: "stopwatch", action: .type("q"), status: 0),
    Case(name: "q counting up to a time", arguments: ["1h", "--up"], waitFor: "ends", action: .type("q"), status: 3),
    Case(name: "q in overtime", arguments: ["1s", "--overtime"], waitFor: "-00:01", action: .type("q"), status: 0),
    Case(
      name: "q before overtime", arguments: ["1h", "--overtime"], waitFor: "ends", action: .type("q"), status: 3),
    Case(
      name: "a key in the finale", arguments: ["1s", "--end-text", "Done"], waitFor: "Done", action: .type("x"),
      status: 0),
    Case(name: "Ctrl-C", arguments: ["1h"], waitFor: "ends", action: .type("\u{3}"), status: 130),
    Case(name: "SIGTERM", arguments: ["1h"], waitFor: "ends", action: .signal(SIGTERM), status: 143),
    Case(name: "bad input", arguments: ["33:58"], waitFor: nil, action: .nothing, status: 64),
    Case(name: "a date too far", arguments: ["9999-12-31"], waitFor: nil, action: .nothing, status: 64),
  ]

  @Test("Each exit status, with the terminal restored", arguments: cases)
  func status(of run: Case) async throws {
    let terminal = try PseudoTerminal(run.arguments)
    if let marker = run.waitFor {
      #expect(try await terminal.wait(for: marker), "\(run.name): \(terminal.text.suffix(300))")
    }
    switch run.action {
    case .nothing: break
    case .type(let keys): terminal.type(keys)
    case .signal(let signal): terminal.send(signal)
    }
    let result = try await terminal.finish()
    #expect(result.status == run.status, "\(run.name): \(String(decoding: result.output.suffix(300), as: UTF8.self))")
    #expect(!result.before.isEmpty && result.after == result.before, "\(run.name): stty -g before and after")
  }

  @Test("A script's && runs only when the countdown ran out")
  func andAnd() async throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "countdown-and-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let marker = directory.appending(path: "alarm")
    let script = "\(CommandRunner.executable.path) \"$1\" --plain > /dev/null && touch '\(marker.path)'"
    func run(_ time: String) async throws -> Termination {
      try await ChildProcess.run(.shell(script, arguments: [time]), output: .discard, errors: .discard).termination
    }
    #expect(try await run("33:58") == .exited(64))
    #expect(!FileManager.default.fileExists(atPath: marker.path), "no alarm after bad input")
    #expect(try await run("0.2s") == .exited(0))
    #expect(FileManager.default.fileExists(atPath: marker.path), "the alarm after the countdown ran out")
  }
}
