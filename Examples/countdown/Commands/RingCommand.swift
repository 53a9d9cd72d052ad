import ArgumentParser
import CountdownKit
import Foundation

/// `countdown ring <progress>`: the ring for a progress, as SVG or as braille text.
struct RingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ring",
    abstract: "Draw the progress ring for a fraction left, as SVG or as text.",
    discussion: """
      <progress> is the fraction of the countdown left: 0.75, or 75%. The ring starts at 12 o'clock \
      and the arc runs clockwise over the part left. With --svg it writes an SVG document (the core's \
      RingGeometry and RingSVG, as in docs and snapshot tests); without, the arc in braille characters.

      Examples:
        countdown ring 0.75 --label 45:00 --svg > ring.svg
        countdown ring 30% --size 64 --line-width 6 --svg --color '#ff3b30'
        countdown ring 0.4
      """
  )

  @Argument(help: ArgumentHelp("The fraction left: 0...1, or a percentage such as 75%.", valueName: "progress"))
  var progress: String

  @Option(help: "Text in the middle of the ring.")
  var label: String?

  @Flag(help: "Write SVG instead of braille text.")
  var svg = false

  @Option(help: "The SVG's width and height in points.")
  var size: DecimalNumber = 120

  @Option(help: "The SVG stroke's width in points.")
  var lineWidth: DecimalNumber = 12

  @Option(help: "The SVG arc's colour (any CSS colour).")
  var color: String?

  func validate() throws {
    _ = try fraction()
    guard (1...10_000).contains(size.value) else {
      throw ValidationError("--size must be between 1 and 10000 points, got \(size.value).")
    }
    guard lineWidth.value > 0, lineWidth.value <= size.value / 2 else {
      throw ValidationError("--line-width must be positive and at most half the size, got \(lineWidth.value).")
    }
  }

  func run() throws {
    let fraction = try fraction()
    if svg {
      let geometry = RingGeometry(progress: fraction, diameter: size.value, lineWidth: lineWidth.value)
      let document = RingSVG().render(geometry, label: label, progressColor: color)
      print(document, terminator: document.hasSuffix("\n") ? "" : "\n")
      return
    }
    let ring = BrailleRing(rows: 6)
    for (index, row) in ring.cells(progress: fraction).enumerated() {
      // Only the arc that is left: without colours the track would look the same.
      var line = String(row.map { $0.isLit ? $0.character : " " })
      if let label = label.map(TerminalText.sanitized), index == ring.rows / 2, label.count <= ring.columns - 6 {
        let start = (ring.columns - label.count) / 2
        line = String(line.prefix(start)) + label + String(line.dropFirst(start + label.count))
      }
      print(line)
    }
  }

  /// The progress argument as a fraction in 0...1.
  private func fraction() throws -> Double {
    let text = DecimalDigits.trimmingSpaces(progress)
    let isPercent = text.hasSuffix("%") || text.hasSuffix("٪")
    let shown = TerminalText.sanitized(progress)
    guard let number = NumberText.decimal(isPercent ? String(text.dropLast()) : text) else {
      throw ValidationError("'\(shown)' is not a progress. Try 0.75 or 75%.")
    }
    let value = isPercent ? number / 100 : number
    guard (0...1).contains(value) else {
      throw ValidationError("'\(shown)' is outside 0...1 (0%...100%). Try 0.75 or 75%.")
    }
    return value
  }
}
