/// Text from outside (a database row, an argument, an error message) made safe to write to a terminal.
public enum TerminalText {
  /// `text` without anything a terminal would act on: C0 and C1 control characters (ESC starts
  /// every escape sequence, BEL rings, CSI in C1), DEL, bidirectional embedding and override marks
  /// (which reorder what follows them), and line and paragraph separators. Tabs and line breaks
  /// become spaces, so one value stays on one line.
  public static func sanitized(_ text: String) -> String {
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
  public static func isSafe(_ text: String) -> Bool {
    sanitized(text) == text
  }
}
