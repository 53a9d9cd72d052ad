import Foundation

/// A progress ring drawn with Unicode braille characters: 2×4 dots per character cell.
///
/// Terminal cells are about twice as tall as they are wide, so braille dots are close to square
/// and a ring of `columns` = 2 × `rows` cells looks round. The ring starts at 12 o'clock and the lit
/// arc, running clockwise, covers the fraction left — the same convention as `RingGeometry`.
struct BrailleRing: Sendable, Hashable {
  /// One character cell of the drawing.
  struct Cell: Sendable, Hashable {
    /// The braille character, or a space when no dot is set.
    var character: Character
    /// Whether the dots drawn belong to the lit arc (otherwise they are the dim track, or none).
    var isLit: Bool
  }

  /// The drawing's size in character cells.
  let columns: Int
  let rows: Int
  /// The stroke's width in dots.
  let thickness: Double
  /// Every dot of the ring, with its position along it (0 at 12 o'clock, growing clockwise to 1).
  private let dots: [(x: Int, y: Int, position: Double)]

  /// A ring `rows` cells tall and twice as wide.
  ///
  /// - Precondition: `rows` is in 2...100.
  init(rows: Int, thickness: Double = 2) {
    precondition((2...100).contains(rows), "A braille ring needs 2...100 rows, got \(rows)")
    self.rows = rows
    self.columns = rows * 2
    self.thickness = thickness
    let side = Double(rows * 4)
    let center = side / 2
    let radius = center - thickness / 2
    var dots: [(Int, Int, Double)] = []
    for y in 0..<(rows * 4) {
      for x in 0..<(columns * 2) {
        let dx = Double(x) + 0.5 - center
        let dy = Double(y) + 0.5 - center
        guard abs((dx * dx + dy * dy).squareRoot() - radius) <= thickness / 2 else { continue }
        var angle = atan2(dx, -dy) / (2 * Double.pi)
        if angle < 0 { angle += 1 }
        dots.append((x, y, angle))
      }
    }
    self.dots = dots
  }

  /// How many dots the ring has: the number of visibly different progress values, to give a
  /// progress display as many steps.
  var dotCount: Int { dots.count }

  static func == (lhs: BrailleRing, rhs: BrailleRing) -> Bool {
    lhs.rows == rhs.rows && lhs.thickness == rhs.thickness
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(rows)
    hasher.combine(thickness)
  }

  /// The cells of the ring with `progress` (0...1, clamped; NaN is 0) of it lit.
  ///
  /// A dot is lit when its position along the ring is below `progress`; a cell that holds lit dots
  /// shows only those, other cells show the track.
  func cells(progress: Double) -> [[Cell]] {
    let progress = progress.isNaN ? 0 : min(max(progress, 0), 1)
    var lit = Array(repeating: Array(repeating: UInt8(0), count: columns), count: rows)
    var track = lit
    for dot in dots {
      let bit = Self.bit(x: dot.x % 2, y: dot.y % 4)
      if dot.position < progress {
        lit[dot.y / 4][dot.x / 2] |= bit
      } else {
        track[dot.y / 4][dot.x / 2] |= bit
      }
    }
    return (0..<rows).map { row in
      (0..<columns).map { column in
        let bits = lit[row][column] != 0 ? lit[row][column] : track[row][column]
        let character = bits == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
        return Cell(character: character, isLit: lit[row][column] != 0)
      }
    }
  }

  /// The bit of a dot in a braille character (dots 1-8 in Unicode order).
  private static func bit(x: Int, y: Int) -> UInt8 {
    switch (x, y) {
    case (0, 0): 0x01
    case (0, 1): 0x02
    case (0, 2): 0x04
    case (1, 0): 0x08
    case (1, 1): 0x10
    case (1, 2): 0x20
    case (0, 3): 0x40
    default: 0x80
    }
  }
}
