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

  static func frame(_ screen: LiveScreen, columns: Int, rows: Int, ring: BrailleRing) -> Frame {
    var lines: [[(String, CellStyle)]] = []
    let color = screen.color
    if let title = screen.title, !title.isEmpty {
      lines.append([(title, CellStyle(isBold: true))])
      lines.append([])
    }
    let extra = (screen.endText == nil ? 0 : 2) + min(screen.laps.count, shownLaps)
    let showsRing = ring.rows + lines.count + 5 + extra <= rows && ring.columns <= columns
    let textWidth = TerminalWidth.columns(of: screen.text)
    let textInside = showsRing && textWidth <= ring.columns - 6
    let textStyle = CellStyle(color: color, isBold: true)
    if showsRing {
      let lit = CellStyle(color: color)
      let track = CellStyle(color: .gray)
      for (index, row) in ring.cells(progress: screen.ring ?? 1).enumerated() {
        var line = row.map { cell in (String(cell.character), cell.isLit && screen.ring != nil ? lit : track) }
        if textInside && index == ring.rows / 2 {
          let start = (ring.columns - textWidth) / 2
          line.replaceSubrange(start..<(start + textWidth), with: [(screen.text, textStyle)])
        }
        lines.append(line)
      }
      lines.append([])
    }
    if !textInside { lines.append([(screen.text, textStyle)]) }
    var status = screen.status
    if let position = screen.position { status = status.isEmpty ? position : "\(status) · \(position)" }
    lines.append([(status, CellStyle(color: screen.isPaused ? .yellow : .white))])
    if let endText = screen.endText {
      lines.append([])
      lines.append([(endText, CellStyle(color: color, isBold: true))])
    }
    for lap in screen.laps.suffix(shownLaps) { lines.append([(lap, CellStyle(isDim: true))]) }
    lines.append([])
    lines.append([(screen.hint, CellStyle(isDim: true))])

    var frame = Frame(columns: columns, rows: rows)
    let top = max(0, (rows - lines.count) / 2)
    for (offset, line) in lines.enumerated() where top + offset < rows {
      let width = line.reduce(0) { $0 + TerminalWidth.columns(of: $1.0) }
      var column = max(0, (columns - width) / 2)
      for (text, style) in line { column = frame.write(text, row: top + offset, column: column, style: style) }
    }
    if screen.isFlashed {
      for row in 0..<rows { frame.restyle(row: row, CellStyle(isInverse: true)) }
    }
    return frame
  }
}
