/// One frame of the live countdown: everything on screen, rendered to a string of ANSI text.
///
/// Pure: the controller fills it in from the latest snapshot and the terminal's size.
struct LiveCountdownFrame: Equatable, Sendable {
  /// The time, as formatted for the chosen style.
  var text: String
  /// The fraction of the ring lit, or `nil` for a stopwatch (a dim full ring).
  var progress: Double?
  var urgency: Urgency
  var title: String?
  /// A short line under the time: "ends 18:25:00", "paused", "time's up".
  var status: String
  var isPaused: Bool
  /// The key help at the bottom.
  var hint = "space pause · +/- 1 min · q quit"

  /// The frame for a `columns`×`rows` terminal with `ring` (which should fit; it is left out when
  /// the terminal is too small for it).
  func render(columns: Int, rows: Int, ring: BrailleRing) -> String {
    let color: ANSI.Color = isPaused ? .gray : (progress == nil ? .cyan : urgency.color)
    var lines: [String] = []
    if let title, !title.isEmpty {
      lines.append(centered(ANSI.bold + title + ANSI.reset, width: title.count, columns: columns))
      lines.append("")
    }
    let showsRing = ring.rows + lines.count + 4 <= rows && ring.columns <= columns
    let textInside = showsRing && text.count <= ring.columns - 6
    let styledText = ANSI.bold + ANSI.colored(text, color)
    if showsRing {
      let cells = ring.cells(progress: progress ?? 1)
      for (index, row) in cells.enumerated() {
        var line = row.map { cellText($0, color) }.joined()
        if textInside && index == ring.rows / 2 {
          // Replace the middle of the row (inside the ring, all blank) with the text.
          let start = (ring.columns - text.count) / 2
          let left = row[..<start].map { cellText($0, color) }.joined()
          let right = row[(start + text.count)...].map { cellText($0, color) }.joined()
          line = left + styledText + right
        }
        lines.append(centered(line, width: ring.columns, columns: columns))
      }
      lines.append("")
    }
    if !textInside {
      lines.append(centered(styledText, width: text.count, columns: columns))
    }
    lines.append(centered(ANSI.colored(status, isPaused ? .yellow : .white), width: status.count, columns: columns))
    lines.append("")
    lines.append(centered(ANSI.dim + hint + ANSI.reset, width: hint.count, columns: columns))
    let top = max(0, (rows - lines.count) / 2)
    var frame = ANSI.home + String(repeating: ANSI.clearToEndOfLine + "\n", count: top)
    for line in lines.prefix(max(rows - top, 0)) {
      frame += line + ANSI.clearToEndOfLine + "\n"
    }
    return frame + ANSI.clearToEndOfScreen
  }

  private func cellText(_ cell: BrailleRing.Cell, _ color: ANSI.Color) -> String {
    cell.isLit && progress != nil
      ? ANSI.colored(String(cell.character), color) : ANSI.colored(String(cell.character), .gray)
  }

  private func centered(_ text: String, width: Int, columns: Int) -> String {
    String(repeating: " ", count: max(0, (columns - width) / 2)) + text
  }
}
