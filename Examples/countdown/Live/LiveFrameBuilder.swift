/// The live countdown's frame for a state and a terminal size: a pure function, tested as cells.
///
/// From the top, centred: the title, the ring with the time inside it (or under it, when the time is
/// too wide or the ring does not fit), the status line with the position in a sequence, the end text,
/// the last laps, and the key help.
enum LiveFrameBuilder {
  /// How many laps are listed (the last ones).
  static let shownLaps = 5

  /// The ring that fits a terminal `rows` tall: 2…10 rows.
  static func ring(forRows rows: Int) -> BrailleRing {
    BrailleRing(rows: min(10, max(2, rows - 8)))
  }

  /// A line of the frame: text in styles, or a row of the ring.
  private enum Line {
    case text([(String, CellStyle)])
    case ring(Int)
  }

  static func frame(_ screen: LiveScreen, columns: Int, rows: Int, ring: BrailleRing) -> Frame {
    var lines: [Line] = []
    let color = screen.color
    if let title = screen.title, !title.isEmpty {
      lines.append(.text([(title, CellStyle(isBold: true))]))
      lines.append(.text([]))
    }
    let extra = (screen.endText == nil ? 0 : 2) + min(screen.laps.count, shownLaps)
    let showsRing = ring.rows + lines.count + 5 + extra <= rows && ring.columns <= columns
    let textWidth = TerminalWidth.columns(of: screen.text)
    let textInside = showsRing && textWidth <= ring.columns - 6
    let textStyle = CellStyle(color: color, isBold: true)
    if showsRing {
      lines += (0..<ring.rows).map { .ring($0) }
      lines.append(.text([]))
    }
    if !textInside { lines.append(.text([(screen.text, textStyle)])) }
    var status = screen.status
    if let position = screen.position { status = status.isEmpty ? position : "\(status) · \(position)" }
    lines.append(.text([(status, CellStyle(color: screen.isPaused ? .yellow : .white))]))
    if let endText = screen.endText {
      lines.append(.text([]))
      lines.append(.text([(endText, CellStyle(color: color, isBold: true))]))
    }
    for lap in screen.laps.suffix(shownLaps) { lines.append(.text([(lap, CellStyle(isDim: true))])) }
    lines.append(.text([]))
    lines.append(.text([(screen.hint, CellStyle(isDim: true))]))

    var frame = Frame(columns: columns, rows: rows)
    let top = max(0, (rows - lines.count) / 2)
    let cells = showsRing ? ring.cells(progress: screen.ring ?? 1) : []
    let lit = CellStyle(color: color)
    let track = CellStyle(color: .gray)
    let ringLeft = max(0, (columns - ring.columns) / 2)
    for (offset, line) in lines.enumerated() where top + offset < rows {
      switch line {
      case .ring(let index):
        for (column, cell) in cells[index].enumerated() {
          frame.put(
            cell.character, row: top + offset, column: ringLeft + column,
            style: cell.isLit && screen.ring != nil ? lit : track)
        }
        if textInside && index == ring.rows / 2 {
          frame.write(
            screen.text, row: top + offset, column: ringLeft + (ring.columns - textWidth) / 2, style: textStyle)
        }
      case .text(let parts):
        let width = parts.reduce(0) { $0 + TerminalWidth.columns(of: $1.0) }
        var column = max(0, (columns - width) / 2)
        for (text, style) in parts { column = frame.write(text, row: top + offset, column: column, style: style) }
      }
    }
    if screen.isFlashed {
      for row in 0..<rows { frame.restyle(row: row, CellStyle(isInverse: true)) }
    }
    return frame
  }
}
