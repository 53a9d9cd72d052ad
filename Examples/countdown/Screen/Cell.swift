/// How a cell of the screen is drawn: a colour and a few attributes.
struct CellStyle: Hashable, Sendable {
  var color: ANSI.Color?
  var isBold = false
  var isDim = false
  var isInverse = false

  /// The terminal's default look.
  static let plain = CellStyle()

  /// The style in `color`.
  static func colored(_ color: ANSI.Color, bold: Bool = false) -> CellStyle {
    CellStyle(color: color, isBold: bold)
  }

  /// The SGR sequence that sets exactly this style (it resets everything else first).
  var sequence: String {
    var codes = ["0"]
    if isBold { codes.append("1") }
    if isDim { codes.append("2") }
    if isInverse { codes.append("7") }
    if let color { codes.append("\(color.rawValue)") }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }
}

/// One character cell of the screen.
struct Cell: Hashable, Sendable {
  /// The character drawn from this cell; `nil` for the second column of a wide character.
  var character: Character?
  var style: CellStyle

  /// A space in the default style.
  static let blank = Cell(character: " ", style: .plain)
}
