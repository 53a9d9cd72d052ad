@testable import CountdownCommandLine

/// Just enough of a VT100 to check what ``ScreenWriter`` sends: cursor moves (`CSI r;c H`, `CSI H`),
/// erase display (`CSI 2J`), SGR (0, 1, 2, 7, colours), OSC strings (skipped), DEC private modes
/// (skipped) and text, with wide characters taking two cells.
struct TerminalEmulator {
  private(set) var screen: Frame
  private var row = 0
  private var column = 0
  private var style = CellStyle.plain

  init(columns: Int, rows: Int) {
    screen = Frame(columns: columns, rows: rows)
  }

  mutating func feed(_ output: String) {
    var scalars = Array(output.unicodeScalars)[...]
    var text = ""
    func flushText(_ emulator: inout TerminalEmulator) {
      for character in text { emulator.put(character) }
      text = ""
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "\u{1B}" else {
        if scalar != "\u{7}" { text.unicodeScalars.append(scalar) }
        continue
      }
      flushText(&self)
      switch scalars.popFirst() {
      case "["?:
        var parameters = ""
        while let next = scalars.first, (0x20...0x3F).contains(next.value) {
          parameters.unicodeScalars.append(next)
          scalars.removeFirst()
        }
        guard let final = scalars.popFirst() else { return }
        control(final, parameters)
      case "]"?:
        while let next = scalars.popFirst(), next != "\u{7}" {}
      default:
        continue
      }
    }
    flushText(&self)
  }

  private mutating func control(_ final: Unicode.Scalar, _ parameters: String) {
    let numbers = parameters.split(separator: ";").map { Int($0) ?? 0 }
    switch final {
    case "H":
      row = max(0, (numbers.first ?? 1) - 1)
      column = max(0, (numbers.count > 1 ? numbers[1] : 1) - 1)
    case "J" where parameters == "2":
      screen = Frame(columns: screen.columns, rows: screen.rows)
    case "m":
      for number in numbers.isEmpty ? [0] : numbers {
        switch number {
        case 0: style = .plain
        case 1: style.isBold = true
        case 2: style.isDim = true
        case 7: style.isInverse = true
        default: style.color = ANSI.Color(rawValue: number)
        }
      }
    default:
      break
    }
  }

  private mutating func put(_ character: Character) {
    guard row < screen.rows, column < screen.columns else { return }
    column = screen.write(String(character), row: row, column: column, style: style)
  }
}
