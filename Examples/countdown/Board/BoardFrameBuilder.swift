/// Everything the live board shows, as plain values.
struct BoardScreen: Equatable, Sendable {
  /// How far the first load is.
  struct Loading: Equatable, Sendable {
    var loaded: Int
    var total: Int
  }

  /// The database file, shown in the header and in the empty board's hint.
  var path: String
  /// The rows on screen, top to bottom.
  var rows: [OrderRow] = []
  /// The position of the selected row in ``rows``, if it is on screen.
  var selected: Int?
  /// How many orders there are; nil until counted.
  var orderCount: Int?
  /// The first load's progress, while it runs.
  var loading: Loading?
  /// How many windows are finished; nil until every row has been read.
  var finishedCount: Int?
  /// How many windows have at most 30 minutes and at most 5 minutes left; nil until every row has been
  /// read.
  var underHalfHour: Int?
  var underFiveMinutes: Int?
  /// How many rows are invalid; nil until every row has been read.
  var invalidCount: Int?
  /// Rows without an integer id (counted, not shown).
  var unreadableCount = 0
  /// The last order that finished, as "#12 Fitting: Ada at 18:25:00".
  var lastFinished: String?
  /// An error to show instead of the status line (sanitized).
  var message: String?
  /// How the board is connected to a server ("following", "reconnecting since 12:03:04"), if it is.
  var connection: String?
}

/// The live board's frame for a state and a terminal size: a pure function, tested as cells.
///
/// A header with the file, a rule, one line per order (the selected one inverted), or, on an empty
/// board, how to add an order; then a rule, the status line (or an error in red) and the key help.
enum BoardFrameBuilder {
  /// How many order lines fit a terminal `rows` tall.
  static func listRows(forRows rows: Int) -> Int {
    max(1, rows - 5)
  }

  static let keyHelp = " ↑↓ move · PgUp/PgDn page · p pause/resume · q quit"

  static func frame(_ screen: BoardScreen, columns: Int, rows: Int) -> Frame {
    var frame = Frame(columns: columns, rows: rows)
    let rule = String(repeating: "─", count: columns)
    var column = frame.write(" Orders", row: 0, column: 0, style: CellStyle(isBold: true))
    column = frame.write("  ", row: 0, column: column)
    frame.write(screen.path, row: 0, column: column, style: CellStyle(isDim: true))
    frame.write(rule, row: 1, column: 0, style: CellStyle(isDim: true))
    let listRows = listRows(forRows: rows)
    if screen.rows.isEmpty && screen.orderCount == 0 && screen.unreadableCount == 0 {
      let hint = [
        "No orders yet. Add one:",
        "  countdown board add \"Fitting: Ada L.\" 45m --db \(screen.path)",
        "or fill the board with demo orders:",
        "  countdown board --seed 100 --db \(screen.path)",
      ]
      for (offset, line) in hint.enumerated() where offset < listRows {
        frame.write(line, row: 2 + offset, column: 2, style: offset % 2 == 0 ? .plain : .colored(.cyan))
      }
    }
    for (offset, row) in screen.rows.prefix(listRows).enumerated() {
      write(row, to: &frame, row: 2 + offset, isSelected: screen.selected == offset)
    }
    if rows >= 4 { frame.write(rule, row: rows - 3, column: 0, style: CellStyle(isDim: true)) }
    if rows >= 3 {
      if let message = screen.message {
        frame.write(" " + message, row: rows - 2, column: 0, style: .colored(.red))
      } else {
        frame.write(" " + status(screen), row: rows - 2, column: 0)
      }
    }
    frame.write(keyHelp, row: rows - 1, column: 0, style: CellStyle(isDim: true))
    return frame
  }

  /// "3000 orders · under 30 min: 120 · under 5 min: 9 · 45 finished · 2 invalid · last: #2974 Pickup:
  /// Sven E. at 9:44:07 PM"; while the first load runs, "1000000 orders · loading 34% · finished:
  /// counting…"; after how the board is connected to a server, if it is ("following · 3000 orders · …").
  static func status(_ screen: BoardScreen) -> String {
    var status = screen.connection.map { "\($0) · " } ?? ""
    status += screen.orderCount.map { "\($0) orders" } ?? "orders: counting…"
    if let loading = screen.loading, loading.total > 0 {
      status += " · loading \(min(100, loading.loaded * 100 / loading.total))%"
    }
    if let underHalfHour = screen.underHalfHour, let underFiveMinutes = screen.underFiveMinutes {
      status += " · under 30 min: \(underHalfHour) · under 5 min: \(underFiveMinutes)"
    }
    status += screen.finishedCount.map { " · \($0) finished" } ?? " · finished: counting…"
    if let invalid = screen.invalidCount, invalid > 0 { status += " · \(invalid) invalid" }
    if screen.unreadableCount > 0 { status += " · \(screen.unreadableCount) without an id" }
    if let last = screen.lastFinished { status += " · last: \(last)" }
    return status
  }

  /// One order: a marker, the id, the title, the window (in its urgency's colour) and the event.
  static func write(_ order: OrderRow, to frame: inout Frame, row: Int, isSelected: Bool) {
    let base = isSelected ? CellStyle(isInverse: true) : .plain
    var column = frame.write(isSelected ? "▸ " : "  ", row: row, column: 0, style: base)
    column = frame.write(padded("#\(order.id)", 7), row: row, column: column, style: base)
    column = frame.write(padded(order.title, 24), row: row, column: column, style: base)
    var windowStyle = base
    if !isSelected { windowStyle.color = order.color }
    // An invalid row has no event: its reason gets the rest of the line.
    let isInvalid = if case .invalid = order.window { true } else { false }
    let windowWidth = isInvalid ? max(frame.columns - column, 2) : 22
    column = frame.write(padded(order.windowText, windowWidth), row: row, column: column, style: windowStyle)
    frame.write(order.eventText ?? "", row: row, column: column, style: isSelected ? base : CellStyle(isDim: true))
    if isSelected { frame.restyle(row: row, base) }
  }

  /// `text` cut to `width - 1` columns (with …) and padded with spaces to `width`.
  static func padded(_ text: String, _ width: Int) -> String {
    var cut = ""
    var used = 0
    for character in text {
      let next = TerminalWidth.columns(of: character)
      guard used + next <= width - 1 else {
        while used > width - 2, let last = cut.popLast() { used -= TerminalWidth.columns(of: last) }
        cut.append("…")
        used += 1
        break
      }
      cut.append(character)
      used += next
    }
    return cut + String(repeating: " ", count: max(1, width - used))
  }
}
