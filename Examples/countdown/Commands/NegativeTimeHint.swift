/// What to say when ArgumentParser took a negative time such as `-5s` for an option.
enum NegativeTimeHint {
  /// A message for the first argument (before any `--`) that starts with minus signs and a digit
  /// (`-5s`, `--5`), or `nil` if there is none. ArgumentParser would take `--5` for an unknown option
  /// and answer "Missing <time>".
  static func message(for arguments: [String]) -> String? {
    for argument in arguments.prefix(while: { $0 != "--" }) {
      let afterDashes = argument.unicodeScalars.drop { $0 == "-" }
      guard afterDashes.count < argument.unicodeScalars.count, let first = afterDashes.first,
        DecimalDigits.value(of: first) != nil
      else { continue }
      if arguments.first == "format" {
        return "'\(TerminalText.sanitized(argument))' was read as an option. To format a negative duration, "
          + "put -- before it: countdown format -- \(TerminalText.sanitized(argument))"
      }
      return TimeSpecError(input: argument, problem: .negative).description
        + " To keep counting past zero, add --overtime."
    }
    return nil
  }
}
