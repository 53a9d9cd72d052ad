/// How many columns a terminal gives a character: 2 for East Asian wide and fullwidth characters
/// and emoji shown as emoji, 0 for characters that take no room, 1 otherwise.
///
/// A small table in the spirit of `wcwidth`, enough for titles typed by people; a terminal may
/// disagree on rare characters, which then shift the rest of their line by a column.
enum TerminalWidth {
  static func columns(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    // Fast paths for what the views draw all the time: ASCII and the braille ring.
    if character.unicodeScalars.count == 1 && (scalar.value < 0x7F || (0x2800...0x28FF).contains(scalar.value)) {
      return scalar.value < 0x20 ? 0 : 1
    }
    let properties = scalar.properties
    if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
      || properties.generalCategory == .format || scalar.value == 0x200B
    {
      return 0
    }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    if properties.isEmojiPresentation { return 2 }
    return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
  }

  /// The columns `text` takes.
  static func columns(of text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
