import CountdownInput
import CountdownKit
import Foundation
import Testing

@testable import countdown

/// What the live board's frames show for given rows, selection and size, read as cells.
@Suite("Board frames and keys")
struct BoardFrameTests {
  static func row(_ id: Int64, _ title: String, _ text: String, urgency: Urgency = .plenty, progress: Double = 1)
    -> OrderRow
  {
    let order = Order(id: id, title: title, window: .running(end: Date()))
    return OrderRow(
      order: order, window: .init(first: .init(first: text, second: urgency), second: progress), isPaused: false,
      event: nil)
  }

  @Test("Header, one line per order with the selected one inverted, status and key help")
  func rows() {
    let screen = BoardScreen(
      path: "/tmp/orders.sqlite",
      rows: [
        Self.row(1, "Fitting: Ada", "3 hours"), Self.row(2, "Pickup: Bo", "45 min", urgency: .hurry, progress: 0.5),
        OrderRow(
          order: Order(id: 3, title: "Broken", window: .invalid("window_end is NULL")), window: nil, isPaused: false,
          event: nil),
      ],
      selected: 1, orderCount: 3, finishedCount: 0, invalidCount: 1, lastFinished: "#7 Return: Cy at 18:25:00")
    let frame = BoardFrameBuilder.frame(screen, columns: 80, rows: 10)
    #expect(frame.text(row: 0) == " Orders  /tmp/orders.sqlite")
    #expect(frame[row: 0, column: 1].style.isBold && frame[row: 0, column: 10].style.isDim)
    #expect(frame.text(row: 2) == "  #1     Fitting: Ada            ● 3 hours")
    #expect(frame.text(row: 3) == "▸ #2     Pickup: Bo              ◑ 45 min")
    #expect(
      frame.text(row: 4) == "  #3     Broken                  ⚠ invalid: window_end is NULL", "the reason in full")
    #expect((0..<80).allSatisfy { frame[row: 3, column: $0].style.isInverse }, "the selected row is inverted")
    #expect(frame[row: 2, column: 33].style.color == .green)
    #expect(frame[row: 4, column: 33].style.color == .red)
    #expect(frame.text(row: 7).hasPrefix("────"))
    #expect(frame.text(row: 8) == " 3 orders · 0 finished · 1 invalid · last: #7 Return: Cy at 18:25:00")
    #expect(frame.text(row: 9) == BoardFrameBuilder.keyHelp)
  }

  @Test("An empty board says how to add an order; an error replaces the status line in red")
  func emptyAndError() {
    var screen = BoardScreen(path: "orders.sqlite")
    let empty = BoardFrameBuilder.frame(screen, columns: 100, rows: 12)
    let text = empty.lines.joined(separator: "\n")
    #expect(text.contains("No orders yet. Add one:"))
    #expect(text.contains("countdown board add \"Fitting: Ada L.\" 45m --db orders.sqlite"))
    #expect(text.contains("countdown board --seed 100 --db orders.sqlite"))
    screen.message = "Cannot read orders.sqlite: disk I/O error"
    let failed = BoardFrameBuilder.frame(screen, columns: 100, rows: 12)
    #expect(failed.text(row: 10) == " Cannot read orders.sqlite: disk I/O error")
    #expect(failed[row: 10, column: 1].style.color == .red)
  }

  @Test("A board that follows a server says first whether it is following or reconnecting")
  func connection() {
    var screen = BoardScreen(path: "postgres://app@db:5432/shop", orderCount: 2, connection: "following")
    #expect(BoardFrameBuilder.frame(screen, columns: 100, rows: 8).text(row: 6) == " following · 2 orders · 0 finished")
    screen.connection = "reconnecting since 18:25:00 (3 attempts): the server is down"
    #expect(
      BoardFrameBuilder.frame(screen, columns: 100, rows: 8).text(row: 6)
        == " reconnecting since 18:25:00 (3 attempts): the server is down · 2 orders · 0 finished")
  }

  @Test("Long and wide titles are cut to their column; only as many rows as fit are drawn")
  func cutting() {
    let rows = (1...30).map { Self.row(Int64($0), "東京の注文 \($0) with a very long title", "2 hours") }
    let frame = BoardFrameBuilder.frame(
      BoardScreen(path: "x", rows: rows, selected: 0, orderCount: 30), columns: 60, rows: 8)
    #expect(frame.text(row: 2) == "▸ #1     東京の注文 1 with a ve… ● 2 hours")
    #expect(frame.text(row: 4).hasPrefix("  #3"))
    #expect(frame.text(row: 5).hasPrefix("────"), "3 order rows fit 8 rows")
    #expect(TerminalWidth.columns(of: BoardFrameBuilder.padded("東京の注文 1 with a very long title", 24)) == 24)
  }

  @Test("Keys move the selection within the list, toggle the pause, quit")
  func keys() {
    #expect(BoardKeys.action(for: .down, selected: 0, count: 3, page: 10) == .select(1))
    #expect(BoardKeys.action(for: .down, selected: 2, count: 3, page: 10) == .select(2))
    #expect(BoardKeys.action(for: .up, selected: 0, count: 3, page: 10) == .select(0))
    #expect(BoardKeys.action(for: .pageDown, selected: 0, count: 100, page: 10) == .select(9))
    #expect(BoardKeys.action(for: .pageUp, selected: 5, count: 100, page: 10) == .select(0))
    #expect(BoardKeys.action(for: .end, selected: 5, count: 100, page: 10) == .select(99))
    #expect(BoardKeys.action(for: .home, selected: 5, count: 100, page: 10) == .select(0))
    #expect(BoardKeys.action(for: .end, selected: 0, count: 0, page: 10) == .select(0))
    #expect(BoardKeys.action(for: .character("p"), selected: 0, count: 3, page: 10) == .togglePause)
    #expect(BoardKeys.action(for: .character(" "), selected: 0, count: 0, page: 10) == nil)
    #expect(BoardKeys.action(for: .character("q"), selected: 0, count: 0, page: 10) == .quit)
    #expect(BoardKeys.action(for: .escape, selected: 0, count: 0, page: 10) == .quit)
    #expect(BoardKeys.action(for: .character("x"), selected: 0, count: 3, page: 10) == nil)
  }
}
