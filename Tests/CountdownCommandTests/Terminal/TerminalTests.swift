import CountdownKit
import Foundation
import Testing

@testable import CountdownCommandLine

@Suite("Terminal layer")
struct TerminalTests {
  @Test("Keys and escape sequences decode")
  func keys() {
    let bytes: [UInt8] =
      Array(" q+-p".utf8) + [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x5B, 0x44]
      + [0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E, 0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41, 0x0D] + Array("é".utf8) + [
        0x1B
      ]
    #expect(
      Key.decode(bytes) == [
        .character(" "), .character("q"), .character("+"), .character("-"), .character("p"),
        .up, .down, .right, .left, .pageUp, .pageDown, .up, .enter, .character("é"), .escape,
      ])
  }

  @Test("Unknown and cut-off escape sequences are skipped whole")
  func unknownSequences() {
    #expect(Key.decode([0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0x71]) == [.character("q")])
    #expect(Key.decode([0x1B, 0x5B, 0x31]) == [])
    #expect(Key.decode([0xFF, 0x71]) == [.character("q")])
  }

  @Test("The braille ring lights the fraction left, clockwise from 12 o'clock", arguments: [2, 6, 10])
  func ring(rows: Int) {
    let ring = BrailleRing(rows: rows)
    func litDots(_ progress: Double) -> Int {
      ring.cells(progress: progress).joined().filter(\.isLit).reduce(0) { count, cell in
        count + (cell.character.unicodeScalars.first!.value - 0x2800).nonzeroBitCount
      }
    }
    #expect(litDots(1) == ring.dotCount)
    #expect(litDots(0) == 0)
    #expect(litDots(.nan) == 0)
    #expect(litDots(2) == ring.dotCount)
    var previous = ring.dotCount
    for step in stride(from: 1.0, through: 0, by: -0.05) {
      let lit = litDots(step)
      #expect(lit <= previous, "the ring only empties")
      previous = lit
    }
    let cells = ring.cells(progress: 0.25)
    #expect(cells.count == rows && cells.allSatisfy { $0.count == rows * 2 })
    // A quarter left: lit cells only in the top-right quadrant.
    for (y, row) in cells.enumerated() {
      for (x, cell) in row.enumerated() where cell.isLit {
        #expect(x >= rows - 1 && y <= rows / 2, "lit cell at \(x),\(y)")
      }
    }
  }

  @Test("The text display changes exactly when the formatted text does")
  func textDisplay() {
    let display = TimeDisplay.text(.coarse, locale: Locale(identifier: "en_US"))
    #expect(display.value(remaining: .seconds(5_400)) == "1.5 hours")
    #expect(display.nextChange(after: .seconds(5_400)) == .seconds(3_600))
    #expect(display.value(remaining: .seconds(3_600)) == "60 min")
    let up = TimeDisplay.text(.digital, locale: Locale(identifier: "en_US"), countsUp: true, total: .seconds(300))
    #expect(up.value(remaining: .seconds(300)) == "00:00")
    #expect(up.value(remaining: .milliseconds(298_500)) == "00:01")
    #expect(up.nextChange(after: .milliseconds(298_500)) == .seconds(298))
    #expect(up.value(remaining: .zero) == "05:00")
    let overtime = TimeDisplay.text(.digital, locale: Locale(identifier: "en_US"), showsOvertime: true)
    #expect(overtime.value(remaining: .milliseconds(-1_500)) == "-00:01")
  }

  @Test("Urgency phases scale with the total")
  func urgency() {
    let pomodoro = Urgency.phases(total: .seconds(1_500))
    #expect(pomodoro.value(remaining: .seconds(301)) == .plenty)
    #expect(pomodoro.value(remaining: .seconds(300)) == .hurry)
    #expect(pomodoro.value(remaining: .seconds(60)) == .lastMinute)
    #expect(pomodoro.value(remaining: .zero) == .over)
    let short = Urgency.phases(total: .seconds(20))
    #expect(short.value(remaining: .seconds(6)) == .plenty)
    #expect(short.value(remaining: .seconds(5)) == .hurry)
    #expect(short.value(remaining: .seconds(2)) == .lastMinute)
  }
}

@Suite("Ring displays")
struct RingDisplayTests {
  @Test("A stopwatch's ring fills once a minute, changing exactly at each step")
  func minute() {
    let display = RingDisplay(kind: .minute(steps: 60))
    #expect(display.value(remaining: .zero) == 0)
    #expect(display.value(remaining: .milliseconds(-1_500)) == 1.0 / 60)
    #expect(display.nextChange(after: .milliseconds(-1_500)) == .seconds(-2))
    #expect(display.value(remaining: .seconds(-2)) == 2.0 / 60)
    #expect(display.value(remaining: .seconds(-61)) == 1.0 / 60, "starts again each minute")
    #expect(display.nextChange(after: .milliseconds(-59_500)) == .seconds(-60))
    #expect(display.value(remaining: .seconds(-60)) == 0)
  }

  @Test("Counting down the ring empties; counting up to a time it fills")
  func leftAndDone() {
    let progress = ProgressDisplay(steps: 4, total: .seconds(8))
    #expect(RingDisplay(kind: .left(progress)).value(remaining: .seconds(6)) == 0.75)
    #expect(RingDisplay(kind: .done(progress)).value(remaining: .seconds(6)) == 0.25)
    #expect(RingDisplay(kind: .done(progress)).nextChange(after: .seconds(6)) == .seconds(4))
  }
}
