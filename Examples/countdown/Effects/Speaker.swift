import Foundation
import Spawn

/// `--voice`: says a phrase through a speech program, one at a time; when phrases come faster than
/// they are spoken, only the newest one waits.
///
/// The program is the command line in `COUNTDOWN_SPEAK_COMMAND` (run by `/bin/sh` with the phrase as
/// its last argument and `COUNTDOWN_SPEAK_LANGUAGE` in its environment), else `espeak-ng -v <language>`,
/// else `say` (macOS). A phrase still being spoken after a minute is cut off.
@MainActor
final class Speaker {
  private let command: ChildCommand
  private var speaking: Task<Void, Never>?
  private var waiting: String?

  /// The longest a phrase may take.
  private static let timeout = Duration.seconds(60)

  /// A speaker for `locale`'s language; throws when no speech program is found.
  init(locale: Locale, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    let language = locale.language.languageCode?.identifier ?? "en"
    guard let (executable, arguments) = Self.program(language: language, environment: environment) else {
      throw SpeakerError()
    }
    command = ChildCommand(
      executable, arguments: arguments,
      environment: ChildEnvironment(environment).removing(ChildEnvironment.secrets)
        .setting(["COUNTDOWN_SPEAK_LANGUAGE": language]))
  }

  /// The speech program and its arguments before the phrase, or nil if there is none.
  nonisolated static func program(language: String, environment: [String: String]) -> (String, [String])? {
    if let command = environment["COUNTDOWN_SPEAK_COMMAND"], !command.isEmpty {
      return ("/bin/sh", ["-c", command + " \"$@\"", "countdown-speak"])
    }
    let search = ChildEnvironment(environment)
    if let espeak = try? ChildCommand("espeak-ng", environment: search).resolvedExecutable() {
      return (espeak, ["-v", language])
    }
    if let say = try? ChildCommand("say", environment: search).resolvedExecutable() { return (say, []) }
    return nil
  }

  /// Says `phrase` now, or after the phrase being spoken.
  func say(_ phrase: String) {
    guard speaking == nil else {
      waiting = phrase
      return
    }
    var command = command
    command.arguments.append(TerminalText.sanitized(phrase))
    speaking = Task {
      _ = try? await ChildProcess.run(command, output: .discard, errors: .inherit, timeout: Self.timeout)
      speaking = nil
      if let next = waiting {
        waiting = nil
        say(next)
      }
    }
  }

  /// Waits for the phrase being spoken and the one waiting, if any (at exit).
  func finish() async {
    while let speaking {
      await speaking.value
    }
  }
}

/// No speech program was found for `--voice`.
struct SpeakerError: Error, CustomStringConvertible {
  var description: String {
    "--voice needs a speech program: install espeak-ng (apt install espeak-ng), use macOS's say, "
      + "or name one in COUNTDOWN_SPEAK_COMMAND (it gets the phrase as its last argument)."
  }
}
