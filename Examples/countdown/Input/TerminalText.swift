/// Text from outside (a database row, an argument, an error message) made safe to write to a terminal.
package enum TerminalText {
  /// `text` without anything a terminal would act on: C0 and C1 control characters (ESC starts
  /// every escape sequence, BEL rings, CSI in C1), DEL, bidirectional embedding and override marks
  /// (which reorder what follows them), and line and paragraph separators. Tabs and line breaks
  /// become spaces, so one value stays on one line.
  package static func sanitized(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: scalars.append(" ")
      case 0x00...0x1F, 0x7F...0x9F: continue
      case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0x061C: continue
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// Whether `text` would come out of ``sanitized(_:)`` unchanged.
  static func isSafe(_ text: String) -> Bool {
    sanitized(text) == text
  }

  /// `text` with everything that does not show as itself written as a Swift escape, for quoting what
  /// was typed in a message: `1\u{200F}0` for a 1, a right-to-left mark and a 0. Escaped are control
  /// characters (tabs and line breaks too), invisible formatting characters (bidi marks, zero-width
  /// spaces, soft hyphens), separators, spaces other than U+0020, unassigned and private-use scalars,
  /// a combining mark that would land on an ASCII character or a digit, and the backslash itself.
  /// What comes out is safe for a terminal (``isSafe(_:)``).
  static func escaped(_ text: String) -> String {
    var result = ""
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      if scalar == "\\" {
        result += "\\\\"
      } else if isInvisible(scalar) || (isMark(scalar) && previous.map(isBase) != false) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether `scalar` shows as nothing, or as a blank that is not the plain space: controls,
  /// formatting characters, separators, other spaces, private-use and unassigned scalars.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
    case .spaceSeparator: scalar != " "
    default: scalar.properties.isDefaultIgnorableCodePoint
    }
  }

  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: true
    default: false
    }
  }

  /// A scalar a combining mark would be mistaken to be part of: ASCII or a decimal digit.
  private static func isBase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII || DecimalDigits.value(of: scalar) != nil
  }
}
