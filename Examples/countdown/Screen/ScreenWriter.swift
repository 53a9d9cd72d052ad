/// Sends frames to the terminal, writing only the cells that changed since the last frame.
///
/// Like ratatui's `Buffer::diff`: each row is compared cell by cell, and each run of changed cells is
/// written after one cursor move, with a style sequence only where the style changes. Runs separated
/// by a few unchanged cells are joined (rewriting them is shorter than moving the cursor). The first
/// frame, a frame of another size and the frame after ``invalidate()`` (a resize, a return from
/// Ctrl-Z) clear the screen and draw everything. With ``synchronizedOutput`` each update is wrapped in
/// DEC mode 2026, so terminals that support it show it at once, never half drawn.
struct ScreenWriter: Sendable {
  /// What the terminal shows now, as far as this writer knows.
  private var shown: Frame?
  /// Whether to bracket updates with DEC mode 2026 (synchronized output).
  var synchronizedOutput = false

  /// The gap of unchanged cells below which two changed runs are written as one.
  static let joinGap = 4

  /// Forgets what the terminal shows: the next frame is drawn in full.
  mutating func invalidate() {
    shown = nil
  }

  /// The bytes that turn the screen into `frame` (empty when nothing changed).
  mutating func update(to frame: Frame) -> String {
    var output = ""
    let previous: Frame
    if let shown, shown.columns == frame.columns, shown.rows == frame.rows {
      previous = shown
    } else {
      output = ANSI.reset + ANSI.home + "\u{1B}[2J"
      previous = Frame(columns: frame.columns, rows: frame.rows)
    }
    var pen = CellStyle.plain
    for row in 0..<frame.rows {
      for run in Self.changedRuns(row: row, from: previous, to: frame) {
        output += ANSI.moveTo(row: row + 1, column: run.lowerBound + 1)
        for column in run {
          let cell = frame[row: row, column: column]
          guard let character = cell.character else { continue }
          if cell.style != pen {
            output += cell.style.sequence
            pen = cell.style
          }
          output.append(character)
        }
      }
    }
    if pen != .plain { output += ANSI.reset }
    shown = frame
    guard !output.isEmpty else { return "" }
    return synchronizedOutput ? "\u{1B}[?2026h" + output + "\u{1B}[?2026l" : output
  }

  /// The column ranges of `row` that differ between `old` and `new`, joined across short gaps and
  /// widened so that none starts or ends inside a wide character.
  static func changedRuns(row: Int, from old: Frame, to new: Frame) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var column = 0
    while column < new.columns {
      guard old[row: row, column: column] != new[row: row, column: column] else {
        column += 1
        continue
      }
      var start = column
      // A changed continuation cell is redrawn from its wide character.
      if new[row: row, column: start].character == nil, start > 0 { start -= 1 }
      var end = column + 1
      var gap = 0
      var probe = end
      while probe < new.columns, gap <= joinGap {
        if old[row: row, column: probe] != new[row: row, column: probe] {
          end = probe + 1
          gap = 0
        } else {
          gap += 1
        }
        probe += 1
      }
      // Keep a wide character whole.
      if end < new.columns, new[row: row, column: end].character == nil { end += 1 }
      if let last = runs.last, last.upperBound >= start {
        runs[runs.count - 1] = last.lowerBound..<max(last.upperBound, end)
      } else {
        runs.append(start..<end)
      }
      column = end
    }
    return runs
  }
}
