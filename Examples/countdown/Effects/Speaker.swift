import Foundation

/// `--voice`: says a phrase through a speech program, one at a time; when phrases come faster than
/// they are spoken, only the newest one waits.
///
/// The program is the command line in `COUNTDOWN_SPEAK_COMMAND` (run by `/bin/sh` with the phrase as
/// its last argument and `COUNTDOWN_SPEAK_LANGUAGE` in its environment), else `espeak-ng -v <language>`,
/// else `say` (macOS).
@MainActor
final class Speaker {
  private let executable: URL
  private let arguments: [String]
  private let language: String
  private var speaking: Process?
  private var waiting: String?

  /// A speaker for `locale`'s language; throws when no speech program is found.
  init(locale: Locale, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    language = locale.language.languageCode?.identifier ?? "en"
    guard let (executable, arguments) = Self.program(language: language, environment: environment) else {
      throw SpeakerError()
    }
    self.executable = executable
    self.arguments = arguments
  }

  /// The speech program and its arguments before the phrase, or nil if there is none.
  nonisolated static func program(language: String, environment: [String: String]) -> (URL, [String])? {
    if let command = environment["COUNTDOWN_SPEAK_COMMAND"], !command.isEmpty {
      return (URL(fileURLWithPath: "/bin/sh"), ["-c", command + " \"$@\"", "countdown-speak"])
    }
    if let espeak = find("espeak-ng", in: environment) { return (espeak, ["-v", language]) }
    if let say = find("say", in: environment) { return (say, []) }
    return nil
  }

  /// Says `phrase` now, or after the phrase being spoken.
  func say(_ phrase: String) {
    guard speaking == nil else {
      waiting = phrase
      return
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments + [TerminalText.sanitized(phrase)]
    var environment = ProcessInfo.processInfo.environment
    environment["COUNTDOWN_SPEAK_LANGUAGE"] = language
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.terminationHandler = { [weak self] process in
      Task { @MainActor in self?.finished(process) }
    }
    do {
      try process.run()
      speaking = process
    } catch {
      speaking = nil
    }
  }

  /// Waits for the phrase being spoken and the one waiting, if any (at exit).
  func finish() {
    while let process = speaking {
      process.waitUntilExit()
      speaking = nil
      if let next = waiting {
        waiting = nil
        say(next)
      }
    }
  }

  private func finished(_ process: Process) {
    guard speaking === process else { return }
    speaking = nil
    if let next = waiting {
      waiting = nil
      say(next)
    }
  }

  /// The executable `name` on the `PATH`.
  private nonisolated static func find(_ name: String, in environment: [String: String]) -> URL? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appending(path: name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}

/// No speech program was found for `--voice`.
struct SpeakerError: Error, CustomStringConvertible {
  var description: String {
    "--voice needs a speech program: install espeak-ng (apt install espeak-ng), use macOS's say, "
      + "or name one in COUNTDOWN_SPEAK_COMMAND (it gets the phrase as its last argument)."
  }
}
