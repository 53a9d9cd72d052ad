import Testing

@testable import CountdownCommandLine

@Suite("Screen writer")
struct ScreenWriterTests {
  static let styles: [CellStyle] = [
    .plain, .colored(.green), .colored(.red, bold: true), CellStyle(isDim: true), CellStyle(isInverse: true),
  ]
  static let texts = ["a", "ring ⣿⡇", "00:59", "東京", "🎉!", "é", "  ", "time's up"]

  /// A frame with random text written over `base`.
  static func scribble(_ base: Frame, _ random: inout SplitMix64) -> Frame {
    var frame = base
    for _ in 0..<Int.random(in: 0...6, using: &random) {
      let text = texts[Int.random(in: 0..<texts.count, using: &random)]
      frame.write(
        text, row: Int.random(in: 0..<frame.rows, using: &random),
        column: Int.random(in: 0..<frame.columns, using: &random),
        style: styles[Int.random(in: 0..<styles.count, using: &random)])
    }
    return frame
  }

  @Test("What it sends turns the screen into each frame, over 2,000 random changes")
  func emulated() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("ScreenWriterTests.emulated seed: \(seed)")
    var random = SplitMix64(seed: seed)
    var writer = ScreenWriter()
    var terminal = TerminalEmulator(columns: 23, rows: 7)
    var frame = Frame(columns: 23, rows: 7)
    for step in 0..<2_000 {
      frame = Self.scribble(frame, &random)
      if step % 500 == 499 { writer.invalidate() }
      terminal.feed(writer.update(to: frame))
      let same = terminal.screen == frame
      #expect(same, "step \(step), seed \(seed): shown \(terminal.screen.lines), wanted \(frame.lines)")
      if !same { return }
    }
  }

  @Test("Nothing changed: nothing sent; one cell changed: one move and one cell")
  func minimal() {
    var writer = ScreenWriter()
    var frame = Frame(columns: 100, rows: 30)
    frame.writeCentered("04:59", row: 15, style: .colored(.green, bold: true))
    let first = writer.update(to: frame)
    #expect(first.contains("\u{1B}[2J") && first.contains("04:59"))
    #expect(writer.update(to: frame).isEmpty)
    var next = frame
    next.writeCentered("04:58", row: 15, style: .colored(.green, bold: true))
    let update = writer.update(to: next)
    #expect(update == "\u{1B}[16;52H\u{1B}[0;1;92m8\u{1B}[0m", "\(update.debugDescription)")
  }

  @Test("Synchronized output brackets each update; a new size or invalidate() redraws in full")
  func synchronizedAndFull() {
    var writer = ScreenWriter()
    writer.synchronizedOutput = true
    var frame = Frame(columns: 10, rows: 3)
    frame.write("abc", row: 1, column: 2)
    let output = writer.update(to: frame)
    #expect(output.hasPrefix("\u{1B}[?2026h") && output.hasSuffix("\u{1B}[?2026l"))
    #expect(writer.update(to: frame).isEmpty, "no brackets around nothing")
    writer.invalidate()
    #expect(writer.update(to: frame).contains("\u{1B}[2J"))
    #expect(writer.update(to: Frame(columns: 11, rows: 3)).contains("\u{1B}[2J"))
  }

  @Test("Wide characters take two cells and are redrawn whole")
  func wide() {
    var frame = Frame(columns: 6, rows: 1)
    #expect(frame.write("東京x", row: 0, column: 0) == 5)
    #expect(frame.text(row: 0) == "東京x")
    #expect(frame[row: 0, column: 1].character == nil)
    frame.write("a", row: 0, column: 1)
    #expect(frame.text(row: 0) == " a京x", "half of 東 overwritten blanks the other half")
    #expect(frame.write("🎉🎉🎉", row: 0, column: 0) == 6)
    #expect(frame.write("東", row: 0, column: 5) == 5, "a wide character that does not fit is left out")
    #expect(TerminalWidth.columns(of: "e\u{301}") == 1)
    #expect(TerminalWidth.columns(of: "\u{200B}") == 0)
  }
}
