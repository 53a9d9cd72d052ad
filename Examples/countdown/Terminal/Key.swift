/// A key press read from the terminal.
enum Key: Equatable, Sendable {
  case character(Character)
  case up, down, left, right, pageUp, pageDown, home, end, enter, escape
  /// The terminal's answer to a DEC private mode query (DECRQM): `mode` is set (1, 2), reset (2,
  /// 4), or unknown (0).
  case modeReport(mode: Int, value: Int)

  /// Decodes the bytes read from a terminal in raw mode into keys.
  ///
  /// Understands the cursor and paging keys in both of the forms terminals send (`ESC [ A` and
  /// `ESC O A`), `ESC [ 5 ~`/`ESC [ 6 ~` for page up/down and UTF-8 text. Sequences it does not know
  /// are skipped whole; a lone `ESC` is ``escape``.
  static func decode(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B {
        let (key, length) = decodeEscape(bytes[index...])
        if let key { keys.append(key) }
        index += length
        continue
      }
      if byte == 0x0D || byte == 0x0A {
        keys.append(.enter)
        index += 1
        continue
      }
      let length = utf8Length(byte)
      let end = min(index + length, bytes.count)
      if let text = String(validating: bytes[index..<end], as: UTF8.self), let character = text.first {
        keys.append(.character(character))
        index = end
      } else {
        index += 1  // Not UTF-8: skip one byte and resynchronize.
      }
    }
    return keys
  }

  /// The key of an escape sequence at the start of `bytes` and how many bytes it takes.
  private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int) {
    let start = bytes.startIndex
    guard bytes.count >= 2, bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") else {
      return (.escape, 1)
    }
    // CSI: parameters (digits, ';', '?'), intermediates (' '...'/'), then one final byte in 0x40...0x7E.
    var index = start + 2
    while index < bytes.endIndex, (0x30...0x3F).contains(bytes[index]) { index += 1 }
    let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
    let intermediatesStart = index
    while index < bytes.endIndex, (0x20...0x2F).contains(bytes[index]) { index += 1 }
    guard index < bytes.endIndex else { return (nil, bytes.count) }
    let length = index - start + 1
    if bytes[index] == UInt8(ascii: "y"), bytes[intermediatesStart..<index].elementsEqual([UInt8(ascii: "$")]) {
      return (modeReport(parameters), length)
    }
    switch (bytes[index], parameters) {
    case (UInt8(ascii: "A"), _): return (.up, length)
    case (UInt8(ascii: "B"), _): return (.down, length)
    case (UInt8(ascii: "C"), _): return (.right, length)
    case (UInt8(ascii: "D"), _): return (.left, length)
    case (UInt8(ascii: "H"), _): return (.home, length)
    case (UInt8(ascii: "F"), _): return (.end, length)
    case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
    case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
    case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
    case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
    default: return (nil, length)
    }
  }

  /// `?2026;2` (the parameters of a DECRPM answer) as a mode report.
  private static func modeReport(_ parameters: String) -> Key? {
    guard parameters.hasPrefix("?") else { return nil }
    let numbers = parameters.dropFirst().split(separator: ";").map { NumberText.integer(String($0)) }
    guard numbers.count == 2, let mode = numbers[0], let value = numbers[1], mode >= 0, mode < 100_000,
      (0...4).contains(value)
    else { return nil }
    return .modeReport(mode: Int(mode), value: Int(value))
  }

  private static func utf8Length(_ leadByte: UInt8) -> Int {
    switch leadByte {
    case 0xF0...: 4
    case 0xE0...: 3
    case 0xC0...: 2
    default: 1
    }
  }
}
