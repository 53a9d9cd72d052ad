import CountdownKit
import Foundation
import Testing

@testable import CountdownCommandLine

/// What the live countdown's frames show, read as cells (text and styles), not as bytes.
@Suite("Live countdown frames")
struct LiveFrameTests {
  static let ring = BrailleRing(rows: 10)

  static func frame(_ screen: LiveScreen, columns: Int = 80, rows: Int = 24) -> Frame {
    LiveFrameBuilder.frame(screen, columns: columns, rows: rows, ring: ring)
  }

  /// The row that contains `text`, and the column it starts at.
  static func find(_ text: String, in frame: Frame) -> (row: Int, column: Int)? {
    for row in 0..<frame.rows {
      let line = frame.text(row: row)
      if let range = line.range(of: text) { return (row, line.distance(from: line.startIndex, to: range.lowerBound)) }
    }
    return nil
  }

  @Test("Title, ring with the time inside, status and key help, centred; colours follow the urgency")
  func layout() throws {
    let screen = LiveScreen(
      text: "04:59", ring: 0.5, urgency: .hurry, title: "Tea", status: "ends 18:00:00", position: "2/4")
    let frame = Self.frame(screen)
    let title = try #require(Self.find("Tea", in: frame))
    let time = try #require(Self.find("04:59", in: frame))
    let status = try #require(Self.find("ends 18:00:00 · 2/4", in: frame))
    let hint = try #require(Self.find("space pause · +/- 1 min · q quit", in: frame))
    #expect(title.row < time.row && time.row < status.row && status.row < hint.row)
    #expect(frame.text(row: time.row).contains("⣿") || frame.text(row: time.row).contains("⡇"), "inside the ring")
    #expect(time.column == (80 - 5) / 2, "centred")
    #expect(frame[row: time.row, column: time.column].style == CellStyle(color: .yellow, isBold: true))
    #expect(frame[row: title.row, column: title.column].style.isBold)
    // Half the ring lit (yellow, the urgency's colour), half the grey track.
    let ringCells = (0..<frame.rows).flatMap { row in (0..<frame.columns).map { frame[row: row, column: $0] } }
      .filter { $0.character.map { ("\u{2801}"..."\u{28FF}").contains($0) } ?? false }
    let lit = ringCells.filter { $0.style.color == .yellow }.count
    let track = ringCells.filter { $0.style.color == .gray }.count
    #expect(lit > 10 && track > 10 && abs(lit - track) < (lit + track) / 4, "lit \(lit), track \(track)")
  }

  @Test("Paused: grey; a long text goes under the ring; a small terminal has no ring")
  func variants() throws {
    var screen = LiveScreen(text: "1 hour, 30 minutes left", ring: 1, status: "paused")
    screen.isPaused = true
    let frame = Self.frame(screen)
    let text = try #require(Self.find("1 hour, 30 minutes left", in: frame))
    #expect(!frame.text(row: text.row).contains("⣿"), "below the ring")
    #expect(frame[row: text.row, column: text.column].style.color == .gray)
    let tiny = Self.frame(screen, columns: 30, rows: 6)
    #expect(Self.find("1 hour, 30 minutes left", in: tiny) != nil)
    #expect(!tiny.lines.joined().contains("⣿"), "no ring when it does not fit")
  }

  @Test("The finale shows the end text and flashes inverted; a stopwatch lists its last laps")
  func finaleAndLaps() throws {
    var screen = LiveScreen(text: "00:00", ring: 0, urgency: .over, status: "time's up", endText: "Tea is ready")
    screen.hint = "press any key to quit"
    let frame = Self.frame(screen)
    let end = try #require(Self.find("Tea is ready", in: frame))
    #expect(frame[row: end.row, column: end.column].style == CellStyle(color: .magenta, isBold: true))
    screen.isFlashed = true
    let flashed = Self.frame(screen)
    #expect(flashed.lines == frame.lines)
    #expect((0..<flashed.rows).allSatisfy { flashed[row: $0, column: 0].style.isInverse })

    var laps = Laps()
    for seconds in [62.35, 70.0, 71.5, 100, 101, 102.25, 110] { laps.record(at: .milliseconds(Int64(seconds * 1_000))) }
    let stopwatch = Self.frame(
      LiveScreen(text: "01:50", ring: 0.8, isStopwatch: true, status: "stopwatch", laps: laps.lines))
    #expect(Self.find("lap 1", in: stopwatch) == nil && Self.find("lap 2", in: stopwatch) == nil, "only the last 5")
    #expect(Self.find("lap 3  0:00:01.50", in: stopwatch) != nil)
    #expect(Self.find("lap 7  0:00:07.75", in: stopwatch) != nil)
  }

  @Test("Laps: lengths from the previous lap, H:MM:SS.cc rounded down")
  func lapLines() {
    var laps = Laps()
    laps.record(at: .milliseconds(62_359))
    laps.record(at: .milliseconds(3_725_000))
    #expect(laps.lines == ["lap 1  0:01:02.35", "lap 2  1:01:02.64"])
    laps.removeAll()
    #expect(laps.lines.isEmpty)
  }

  @Test("--voice announces at the start, hours, round minutes and the last ten seconds, in the locale")
  func announcements() {
    let announcements = Announcements(total: .seconds(150), locale: Locale(identifier: "en_US"))
    #expect(announcements.points.map(\.components.seconds) == [120, 60, 30, 20, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    let display = announcements.display
    #expect(display.value(remaining: .seconds(130)) == 0)
    #expect(display.value(remaining: .seconds(120)) == 1)
    #expect(display.nextChange(after: .seconds(130)) == .seconds(120))
    #expect(announcements.phrase(passed: 1, remaining: .zero) == "2 minutes left")
    #expect(announcements.phrase(passed: 0, remaining: .seconds(150)) == "2 minutes, 30 seconds left")
    let russian = Announcements(total: .seconds(150), locale: Locale(identifier: "ru"))
    #expect(russian.phrase(passed: 1, remaining: .zero) == "Осталось: 2 минуты")
    let long = Announcements(total: .seconds(3 * 86_400 + 5), locale: Locale(identifier: "en_US"))
    #expect(long.points.prefix(4).map(\.components.seconds) == [259_200, 172_800, 86_400, 82_800])
  }

  @Test("The terminal's answer to the synchronized-output query decodes as a mode report")
  func modeReport() {
    #expect(Key.decode(Array("\u{1B}[?2026;2$y".utf8)) == [.modeReport(mode: 2026, value: 2)])
    #expect(Key.decode(Array("\u{1B}[?2026;0$yq".utf8)) == [.modeReport(mode: 2026, value: 0), .character("q")])
    #expect(Key.decode(Array("\u{1B}[?2026;9$yq".utf8)) == [.character("q")], "not a valid answer: skipped")
  }
}
