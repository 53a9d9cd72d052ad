/// The few ANSI/VT100 escape sequences the live views use.
enum ANSI {
  static let escape = "\u{1B}["
  /// Switches to the alternate screen, so the shell's screen comes back untouched on exit.
  static let enterAlternateScreen = "\u{1B}[?1049h"
  /// Switches back to the normal screen.
  static let leaveAlternateScreen = "\u{1B}[?1049l"
  static let hideCursor = "\u{1B}[?25l"
  static let showCursor = "\u{1B}[?25h"
  /// Moves the cursor to the top-left corner.
  static let home = "\u{1B}[H"
  /// Clears from the cursor to the end of the line.
  static let clearToEndOfLine = "\u{1B}[K"
  /// Clears from the cursor to the end of the screen.
  static let clearToEndOfScreen = "\u{1B}[J"
  static let reset = "\u{1B}[0m"
  static let bold = "\u{1B}[1m"
  static let dim = "\u{1B}[2m"
  static let inverse = "\u{1B}[7m"

  /// A foreground colour of the basic 8-colour palette (bright variant).
  enum Color: Int, Sendable {
    case red = 91, green = 92, yellow = 93, blue = 94, magenta = 95, cyan = 96, white = 97, gray = 90
  }

  /// `text` in `color`, then back to the default attributes.
  static func colored(_ text: String, _ color: Color) -> String {
    "\(escape)\(color.rawValue)m\(text)\(reset)"
  }

  /// Moves the cursor to 1-based `row` and `column`.
  static func moveTo(row: Int, column: Int) -> String {
    "\(escape)\(row);\(column)H"
  }
}
