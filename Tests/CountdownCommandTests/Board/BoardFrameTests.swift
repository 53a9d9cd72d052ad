import CountdownKit
import Foundation
import Testing

@testable import CountdownCommandLine

/// What the live board's frames show for given rows, selection and size, read as cells.
@Suite("Board frames and keys")
struct BoardFrameTests {
  static func row(_ id: Int64, _ title: String, _ text: String, urgency: Urgency = .plenty, progress: Double = 1)
    -> OrderRow
  {
    let order = Order(id: id, title: title, window: .success(.until(Date())))
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
          order: Order(id: 3, title: "Broken", window: .failure(.noEnd)), window: nil, isPaused: false,
          event: nil),
      ],
      selected: 1, orderCount: 3, finishedCount: 0, invalidCount: 1, lastFinished: "#7 Return: Cy at 18:25:00")
    let frame = BoardFrameBuilder.frame(screen, columns: 80, rows: 10)
    #expect(frame.text(row: 0) == " Orders  /tmp/orders.sqlite")
    #expect(frame[row: 0, column: 1].style.isBold && frame[row: 0, column: 10].style.isDim)
    #expect(frame.text(row: 2) == "  #1     Fitting: Ada            ● 3 hours")
    #expect(frame.text(row: 3) == "▸ #2     Pickup: Bo              ◑ 45 min")
    #expect(
      frame.text(row: 4) == "  #3     Broken                  ⚠ invalid: no end date and no paused time left",
      "the reason in full")
    #expect((0..<80).allSatisfy { frame[row: 3, column: $0].style.isInverse }, "the selected row is inverted")
    #expect(frame[row: 2, column: 33].style.color == .green)
    #expect(frame[row: 4, column: 33].style.color == .red)
    #expect(frame.text(row: 7).hasPrefix("────"))
    #expect(frame.text(row: 8) == " 3 orders · 0 finished · 1 invalid · last: #7 Return: Cy at 18:25:00")
    #expect(frame.text(row: 9) == BoardFrameBuilder.keyHelp)
  }

  @Test("Once every row is read, the status line counts the windows under 30 and under 5 minutes")
  func urgencyCounts() {
    var screen = BoardScreen(path: "x", orderCount: 40, finishedCount: 2, invalidCount: 0)
    #expect(BoardFrameBuilder.status(screen) == "40 orders · 2 finished", "unknown counts are not shown")
    screen.underHalfHour = 12
    screen.underFiveMinutes = 3
    #expect(BoardFrameBuilder.status(screen) == "40 orders · under 30 min: 12 · under 5 min: 3 · 2 finished")
  }

  @Test("The boards count every window's urgency, on screen or not, and follow rows that move or go")
  func boardsCountUrgencies() throws {
    let boards = OrderBoards(locale: Locale(identifier: "en_US"))
    defer { boards.shutdown() }
    let now = Date()
    func running(_ id: Int64, minutes: Double) -> OrderTimes {
      OrderTimes(id: id, window: .success(.until(now.addingTimeInterval(minutes * 60))), eventAt: nil)
    }
    let minutes: [Int64: Double] = [1: 120, 2: 20, 3: 25, 4: 2, 5: -3, 6: 50]
    var rows = minutes.map { running($0, minutes: $1) }
    rows.append(OrderTimes(id: 7, window: .success(.paused(remaining: .seconds(240))), eventAt: nil))
    rows.append(OrderTimes(id: 8, window: .failure(.noEnd), eventAt: nil))
    boards.apply(.loading(total: rows.count + 1, events: nil))
    boards.apply(.changed(rows, removed: [], isFirstLoad: true))
    // During the load: #3 moves to 40 minutes left; the counts are unknown until the load ends.
    boards.apply(.changed([running(3, minutes: 40)], removed: []))
    #expect(boards.urgencyCounts(at: now) == nil)
    boards.apply(.changed([running(9, minutes: 4)], removed: [], isFirstLoad: true))
    boards.apply(.loaded(unreadable: 0))
    #expect(try #require(boards.urgencyCounts(at: now)) == (underHalfHour: 4, underFiveMinutes: 3))
    // #1 moves to 1 minute left, #2 is deleted, #8 becomes valid with 10 minutes left, #7 resumes with
    // 40 minutes left.
    boards.apply(
      .changed(
        [running(1, minutes: 1), running(8, minutes: 10), running(7, minutes: 40)], removed: [2]))
    #expect(try #require(boards.urgencyCounts(at: now)) == (underHalfHour: 4, underFiveMinutes: 3))
    // As time passes (away from the boundaries): in 11 minutes #3 and #7 have 29 left, #8 is over; in 25,
    // #6 has 25 left too.
    #expect(
      try #require(boards.urgencyCounts(at: now.addingTimeInterval(660))) == (underHalfHour: 2, underFiveMinutes: 0))
    #expect(
      try #require(boards.urgencyCounts(at: now.addingTimeInterval(1_500))) == (underHalfHour: 3, underFiveMinutes: 0))
    #expect(
      try #require(boards.urgencyCounts(at: now.addingTimeInterval(4_000))) == (underHalfHour: 0, underFiveMinutes: 0))
    // A reload counts exactly its rows.
    boards.apply(.reloaded([running(1, minutes: 3), running(2, minutes: 29)]))
    #expect(try #require(boards.urgencyCounts(at: now)) == (underHalfHour: 2, underFiveMinutes: 1))
  }

  @Test("An empty board says how to add an order; an error replaces the status line in red")
  func emptyAndError() {
    var screen = BoardScreen(path: "orders.sqlite", orderCount: 0)
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
    var screen = BoardScreen(
      path: "postgres://app@db:5432/shop", orderCount: 2, finishedCount: 0, invalidCount: 0, connection: "following")
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

  @Test("While the first load runs, the status line shows its progress and the counts it cannot know yet")
  func loadingStatus() {
    var screen = BoardScreen(path: "x", rows: [Self.row(1, "Fitting: Ada", "3 hours")], selected: 0)
    #expect(BoardFrameBuilder.status(screen) == "orders: counting… · finished: counting…")
    screen.orderCount = 1_000_000
    screen.loading = BoardScreen.Loading(loaded: 340_000, total: 1_000_000)
    #expect(BoardFrameBuilder.status(screen) == "1000000 orders · loading 34% · finished: counting…")
    screen.loading = nil
    screen.finishedCount = 20_134
    screen.invalidCount = 0
    #expect(BoardFrameBuilder.status(screen) == "1000000 orders · 20134 finished")
    let empty = BoardFrameBuilder.frame(BoardScreen(path: "x", orderCount: nil), columns: 80, rows: 10)
    #expect(!empty.lines.joined().contains("No orders yet"), "not before the count says so")
  }

  @Test("Keys move the selection by rows and pages, to the first and last order, toggle the pause, quit")
  func keys() {
    #expect(BoardKeys.action(for: .down, page: 10) == .move(1))
    #expect(BoardKeys.action(for: .up, page: 10) == .move(-1))
    #expect(BoardKeys.action(for: .pageDown, page: 10) == .move(9))
    #expect(BoardKeys.action(for: .pageUp, page: 10) == .move(-9))
    #expect(BoardKeys.action(for: .pageDown, page: 1) == .move(1))
    #expect(BoardKeys.action(for: .end, page: 10) == .last)
    #expect(BoardKeys.action(for: .home, page: 10) == .first)
    #expect(BoardKeys.action(for: .character("p"), page: 10) == .togglePause)
    #expect(BoardKeys.action(for: .character(" "), page: 10) == .togglePause)
    #expect(BoardKeys.action(for: .character("q"), page: 10) == .quit)
    #expect(BoardKeys.action(for: .escape, page: 10) == .quit)
    #expect(BoardKeys.action(for: .character("x"), page: 10) == nil)
  }
}
