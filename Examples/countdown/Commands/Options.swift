import ArgumentParser
import CountdownKit
import Foundation

/// A format preset as a command-line value.
enum Style: String, CaseIterable, ExpressibleByArgument {
  case digital, units, coarse, spoken

  /// The core's preset of the same name.
  var preset: CountdownFormatStyle.Preset {
    switch self {
    case .digital: .digital
    case .units: .units
    case .coarse: .coarse
    case .spoken: .spoken
    }
  }
}

/// The `--style` and `--locale` options shared by the commands that format time.
struct FormatOptions: ParsableArguments {
  @Option(help: "How to write the time: digital 05:00, units 5 min, coarse 1.5 hours, spoken 5 minutes left.")
  var style: Style = .digital

  @Option(
    help: ArgumentHelp(
      "The language and region of the text, e.g. en, de, ru, cs, ja_JP (default: the system's).",
      valueName: "identifier"))
  var locale: String?

  init() {}

  /// Options with `locale` set, for commands that declare their own options.
  init(locale: String?) {
    self.locale = locale
  }

  /// The locale asked for, or the current one.
  var resolvedLocale: Locale {
    locale.map { Locale(identifier: $0) } ?? .autoupdatingCurrent
  }

  func validate() throws {
    guard let locale else { return }
    let language = Locale(identifier: locale).language.languageCode?.identifier
    guard let language, Locale.LanguageCode.isoLanguageCodes.contains(where: { $0.identifier == language }) else {
      throw ValidationError(
        "Unknown locale '\(TerminalText.sanitized(locale))'. Use a language code such as en, de or ru, optionally with a region: en_GB."
      )
    }
  }
}
