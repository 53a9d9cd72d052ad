import ArgumentParser
import CountdownKit
import Foundation

/// `countdown format <duration>`: the format presets, once, for scripts and for a look at them.
struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "format",
    abstract: "Print a duration in the countdown's formats.",
    discussion: """
      Without --style, prints all four styles, one per line. A leading minus (after --) formats \
      overtime. Words, plural forms and digits come from Foundation's data for the locale.

      Examples:
        countdown format 1h30m                              all four styles
        countdown format 5400 --style coarse --locale de    1,5 Stunden
        countdown format 5m --style spoken --locale ru      Осталось: 5 минут
        countdown format --style digital -- -5s             -00:05
      """
  )

  @Argument(
    help: ArgumentHelp(
      "A duration: 90s, 25m, 1h30m, 1:30:00, or seconds (5400); a leading - for overtime.", valueName: "duration"))
  var duration: String

  @Option(help: "Print only this style.")
  var style: Style?

  @Option(
    help: ArgumentHelp(
      "The language and region of the text, e.g. en, de, ru, cs, ja_JP (default: the system's).",
      valueName: "identifier"))
  var locale: String?

  @Flag(help: "Round down, as a stopwatch does, instead of up.")
  var down = false

  func validate() throws {
    _ = try value()
    try FormatOptions(locale: locale).validate()
  }

  func run() throws {
    let value = try value()
    let locale = FormatOptions(locale: locale).resolvedLocale
    let rounding: CountdownFormatStyle.Rounding = down ? .down : .up
    if let style {
      print(CountdownFormatStyle(style.preset, rounding: rounding, locale: locale).format(value))
      return
    }
    for style in Style.allCases {
      let text = CountdownFormatStyle(style.preset, rounding: rounding, locale: locale).format(value)
      print(style.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + text)
    }
  }

  /// The duration argument, negative with a leading minus.
  private func value() throws -> Duration {
    let trimmed = duration.trimmingCharacters(in: .whitespaces)
    let negative = trimmed.hasPrefix("-")
    let text = negative ? String(trimmed.dropFirst()) : trimmed
    let spec: TimeSpec
    do {
      spec = try TimeSpec(parsing: text)
    } catch {
      throw ValidationError(error.description)
    }
    guard case .duration(let value) = spec.form else {
      throw ValidationError(
        "'\(TerminalText.escaped(duration))' is a time, not a duration. Try 90s, 25m, 1h30m or 1:30:00.")
    }
    return negative ? .zero - value : value
  }
}
