import CountdownInput

/// What to say when ArgumentParser took a negative time such as `-5s` for an option.
enum NegativeTimeHint {
  /// A message for the first argument (before any `--`) that starts with a minus and a digit, or
  /// `nil` if there is none.
  static func message(for arguments: [String]) -> String? {
    for argument in arguments.prefix(while: { $0 != "--" }) {
      let scalars = Array(argument.unicodeScalars)
      guard scalars.count > 1, scalars[0] == "-", DecimalDigits.value(of: scalars[1]) != nil else { continue }
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
