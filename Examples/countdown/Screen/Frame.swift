/// What the screen shows: a grid of cells, built as plain data by a pure function of the state
/// (``LiveFrameBuilder``, ``BoardFrameBuilder``) and sent to the terminal by ``ScreenWriter``, which
/// writes only what changed. Tests read frames as text and styles, never as escape bytes.
struct Frame: Equatable, Sendable {
  let columns: Int
  let rows: Int
  private(set) var cells: [Cell]

  /// A blank frame of `columns`×`rows` (each at least 1).
  init(columns: Int, rows: Int) {
    self.columns = max(1, columns)
    self.rows = max(1, rows)
    cells = Array(repeating: .blank, count: self.columns * self.rows)
  }

  /// The cell at `row`, `column` (0-based).
  subscript(row row: Int, column column: Int) -> Cell {
    cells[row * columns + column]
  }

  /// Writes `text` from `column` of `row` in `style`, clipped at the right edge (a wide character that
  /// does not fit is left out); returns the column after the last one written.
  @discardableResult
  mutating func write(_ text: String, row: Int, column: Int, style: CellStyle = .plain) -> Int {
    guard (0..<rows).contains(row) else { return column }
    var position = max(0, column)
    for character in text {
      let width = TerminalWidth.columns(of: character)
      guard width > 0 else { continue }
      guard position + width <= columns else { break }
      clearWideCharacter(row: row, column: position)
      if width == 2 { clearWideCharacter(row: row, column: position + 1) }
      cells[row * columns + position] = Cell(character: character, style: style)
      if width == 2 { cells[row * columns + position + 1] = Cell(character: nil, style: style) }
      position += width
    }
    return position
  }

  /// Puts `character`, which must take one column (ASCII, braille), at `row`, `column` if it is inside.
  mutating func put(_ character: Character, row: Int, column: Int, style: CellStyle) {
    guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
    clearWideCharacter(row: row, column: column)
    cells[row * columns + column] = Cell(character: character, style: style)
  }

  /// Blanks the wide character that covers `column`, if any, before the cell is overwritten.
  private mutating func clearWideCharacter(row: Int, column: Int) {
    let index = row * columns + column
    if cells[index].character == nil, column > 0 {
      cells[index - 1] = Cell(character: " ", style: cells[index - 1].style)
    } else if column + 1 < columns, cells[index + 1].character == nil {
      cells[index + 1] = Cell(character: " ", style: cells[index + 1].style)
    }
  }

  /// Writes `text` centred on `row`.
  @discardableResult
  mutating func writeCentered(_ text: String, row: Int, style: CellStyle = .plain) -> Int {
    write(text, row: row, column: max(0, (columns - TerminalWidth.columns(of: text)) / 2), style: style)
  }

  /// Sets the style of `row` from `start` to the right edge, keeping the characters.
  mutating func restyle(row: Int, from start: Int = 0, _ style: CellStyle) {
    guard (0..<rows).contains(row) else { return }
    for column in max(0, start)..<columns { cells[row * columns + column].style = style }
  }

  /// The characters of `row`, wide characters once, trailing spaces removed.
  func text(row: Int) -> String {
    var line = ""
    for column in 0..<columns {
      if let character = self[row: row, column: column].character { line.append(character) }
    }
    while line.last == " " { line.removeLast() }
    return line
  }

  /// Every row as text.
  var lines: [String] { (0..<rows).map { text(row: $0) } }
}
