import CountdownKit
import Foundation
import GRDB
import Testing

@testable import CountdownCommandLine

@Suite("Board model")
struct BoardTests {
  @Test(
    "Window ends: GRDB text, ISO 8601, timestamps; NULL, garbage and absurd values make the window invalid",
    arguments: [
      (ColumnValue.null, "no end date"),
      (.text("2026-12-31 23:59:59.000"), "1798761599.0"),
      (.text("2026-12-31T23:59:59Z"), "1798761599.0"),
      (.text("2026-12-31T23:59:59+01:00"), "1798757999.0"),
      (.integer(1_798_761_599), "1798761599.0"),
      (.text("next tuesday"), "not a date"),
      (.text("9999-12-31 00:00:00"), "out of range"),
      (.real(-1.0), "out of range"),
      (.real(.infinity), "out of range"),
      (.blob([0xFF]), "not a date"),
      (.text("2026-12-31 23:59:59"), "1798761599.0"),
      (.text("2026-12-31"), "1798675200.0"),
      (.text("๒๐๒๖-๑๒-๓๑ ๒๓:๕๙:๕๙"), "1798761599.0"),
      (.text("2026-12-31 23:59:59 +18:01"), "not a date"),
      (.text("2026-02-30 00:00:00"), "not a date"),
      (.integer(.max), "out of range"),
      (.integer(.min), "out of range"),
      (.real(.nan), "out of range"),
      (.text("\u{1B}[2J"), "not a date: \"[2J\""),
    ])
  func dates(value: ColumnValue, expected: String) {
    switch Order.window(end: Order.date(value), pausedRemaining: .success(nil)) {
    case .success(.until(let date)): #expect("\(date.timeIntervalSince1970)" == expected)
    case .success(let deadline): Issue.record("read as \(deadline)")
    case .failure(let problem): #expect(problem.description.contains(expected), "\(problem)")
    }
    if case .success(let date?) = Order.date(value) {
      #expect(Order.eventAt(.success(date)) == (expected.contains("out of range") ? nil : date), "as an event date")
    }
  }

  @Test("Paused remaining time: seconds, never negative, NaN or huge; it wins over the window end")
  func remaining() throws {
    func window(_ value: ColumnValue) -> Result<Deadline, InvalidDeadline> {
      Order.window(end: .failure(.unreadable("window_end is not a date")), pausedRemaining: Order.seconds(value))
    }
    #expect(try Order.seconds(.null).get() == nil)
    #expect(window(ColumnValue(90.5.databaseValue)) == .success(.paused(remaining: .milliseconds(90_500))))
    #expect(window(.text("๙๐")) == .success(.paused(remaining: .seconds(90))))
    for bad in [(-5.0).databaseValue, Double.nan.databaseValue, 1e300.databaseValue] {
      guard case .failure(.pausedOutOfRange) = window(ColumnValue(bad)) else {
        Issue.record("paused_remaining \(bad) was accepted")
        continue
      }
    }
    #expect(window(.text("soon")) == .failure(.unreadable("paused_remaining is not a number of seconds: \"soon\"")))
  }

  @Test("Rows read into orders; a paused time wins over the window end; problems make the row invalid")
  func rows() {
    let end = Date(timeIntervalSince1970: 1_798_761_599)
    func order(_ values: [String: (any DatabaseValueConvertible)?]) -> Order? {
      Order(columns: Order.Columns(row: Row(["id": 7, "title": "Fitting"].merging(values) { $1 })))
    }
    #expect(order(["window_end": end])?.window == .success(.until(end)))
    #expect(order(["window_end": end, "paused_remaining": 60.0])?.window == .success(.paused(remaining: .seconds(60))))
    #expect(order(["window_end": nil])?.window == .failure(.noEnd))
    #expect(order(["window_end": end, "event_at": "garbage"])?.eventAt == nil)
    #expect(order(["window_end": end, "event_at": end])?.eventAt == end)
    #expect(order(["window_end": end, "title": "\u{1B}]2;x\u{7}Ada"])?.title == "]2;xAda")
    #expect(order(["window_end": end, "title": nil])?.title == "(untitled)")
    #expect(order(["id": "seven", "window_end": end]) == nil, "no integer id: not a row the board can key")
  }

  @Test(
    "A board row reads like the marketplace widget",
    arguments: [
      (1.0, "● 2 hours"), (0.75, "◕ 1.5 hours"), (0.5, "◑ 1 hour"), (0.25, "◔ 30 min"), (0.0, "○ 0 min"),
    ])
  func rowText(progress: Double, expected: String) {
    let order = Order(id: 3, title: "Fitting: Ada", window: .success(.until(Date())))
    let text = String(expected.dropFirst(2))
    let value = OrderRow.WindowValue(first: .init(first: text, second: .plenty), second: progress)
    let row = OrderRow(order: order, window: value, isPaused: false, event: nil)
    #expect(row.plainLine == "#3 Fitting: Ada | \(expected)")
    let paused = OrderRow(order: order, window: value, isPaused: true, event: "1:00:00")
    #expect(paused.plainLine == "#3 Fitting: Ada | ⏸ \(text) (paused)")
  }

  @Test("The demo data is the same for the same seed and starts from now")
  func demo() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let first = DemoOrders.orders(count: 500, now: now)
    let second = DemoOrders.orders(count: 500, now: now)
    #expect(first.map(\.title) == second.map(\.title))
    #expect(first.map(\.windowEnd) == second.map(\.windowEnd))
    let over = first.filter { $0.windowEnd <= now }.count
    #expect((1...50).contains(over), "a few windows already over: \(over)")
    #expect(first.allSatisfy { $0.windowEnd < now + 8 * 3_600 + 1 })
  }

  @Test("A duration counts on the monotonic clock; a time of day or date follows the wall clock")
  func setups() throws {
    let engine = Engine(clock: ContinuousClock())
    defer { engine.shutdown() }
    let duration = try CountdownSetup(
      target: .duration(.seconds(90)), engine: engine, style: .digital, locale: Locale(identifier: "en_US"),
      countsUp: false, overtime: false)
    #expect(duration.deadline == nil)
    #expect(duration.countdown.total == .seconds(90))
    #expect(duration.stopsAtEnd)
    let deadline = Date().addingTimeInterval(3_600)
    let clock = try CountdownSetup(
      target: .deadline(deadline), engine: engine, style: .digital, locale: Locale(identifier: "en_US"),
      countsUp: false, overtime: true)
    #expect(clock.deadline == deadline)
    #expect(!clock.stopsAtEnd)
    let stopwatch = try CountdownSetup(
      target: nil, engine: engine, style: .digital, locale: Locale(identifier: "en_US"), countsUp: true,
      overtime: false)
    #expect(!stopwatch.stopsAtEnd && stopwatch.countdown.total == nil)
  }
}
