/// A cursor over ASCII bytes for the hand-written parsers of this module.
///
/// Every read either consumes what it matched and returns it, or returns `nil` and leaves the
/// cursor where it was, so a parser can try one form after another; ``farthest`` remembers how far
/// the forms that recognized something got (``noteFarthest()``), to say which part of a rejected text
/// was not understood. Numbers are read from
/// ASCII digits only (see ``DecimalDigits`` for how other digits get here) and never overflow: a
/// read takes at most 18 digits into an `Int64`.
struct ASCIIScanner {
  let bytes: [UInt8]
  private(set) var index = 0
  /// The furthest index noted by ``noteFarthest()``.
  private(set) var farthest = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte has been read.
  var isAtEnd: Bool { index == bytes.count }

  /// The next byte, if any.
  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Whether the next byte is an ASCII digit.
  var nextIsDigit: Bool { peek.map(Self.isDigit) ?? false }

  /// Whether the next byte is a lowercase ASCII letter.
  var nextIsLetter: Bool { peek.map(Self.isLetter) ?? false }

  static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

  static func isLetter(_ byte: UInt8) -> Bool { (97...122).contains(byte) }

  /// Reads `byte` if it comes next.
  mutating func skip(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }

  /// Reads `word` (lowercase ASCII) if it comes next.
  mutating func skip(_ word: String) -> Bool {
    var end = index
    for byte in word.utf8 {
      guard end < bytes.count, bytes[end] == byte else { return false }
      end += 1
    }
    index = end
    return true
  }

  /// Reads `word` if it comes next and no letter follows it.
  mutating func skipWord(_ word: String) -> Bool {
    attempt { scanner in scanner.skip(word) && !scanner.nextIsLetter ? true : nil } ?? false
  }

  /// Skips spaces; returns how many.
  @discardableResult
  mutating func skipSpaces() -> Int {
    let start = index
    while peek == 32 || peek == 9 { index += 1 }
    return index - start
  }

  /// Reads a run of letters.
  mutating func letters() -> String? {
    let start = index
    while nextIsLetter { index += 1 }
    return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
  }

  /// Reads a run of digits; `nil` (nothing read) unless there are `minimum...maximum` of them and no
  /// more follow. `maximum` is at most 18, so the value fits an `Int64`.
  mutating func number(digits minimum: Int, _ maximum: Int) -> (value: Int64, count: Int)? {
    precondition(
      minimum >= 1 && maximum <= 18 && minimum <= maximum, "Internal inconsistency: digits \(minimum)...\(maximum)")
    let start = index
    var end = index
    while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
    let count = end - start
    guard (minimum...maximum).contains(count) else { return nil }
    var value: Int64 = 0
    for byte in bytes[start..<end] { value = value * 10 + Int64(byte - 48) }
    index = end
    return (value, count)
  }

  /// Reads a run of up to `maximum` digits as text (for numbers longer than an `Int64` holds).
  mutating func digitText(maximum: Int = .max) -> [UInt8]? {
    let start = index
    var end = index
    while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
    guard end > start, end - start <= maximum else { return nil }
    index = end
    return Array(bytes[start..<end])
  }

  /// Runs `read`; if it returns `nil`, the cursor goes back to where it was.
  mutating func attempt<T, Failure: Error>(
    _ read: (inout ASCIIScanner) throws(Failure) -> T?
  ) throws(Failure) -> T? {
    let start = index
    if let value = try read(&self) { return value }
    index = start
    return nil
  }

  /// Goes back to `position` (the start by default), remembering ``farthest``.
  mutating func rewind(to position: Int = 0) {
    precondition(position <= index, "Internal inconsistency: rewinding forward to \(position) from \(index)")
    index = position
  }

  /// Records the cursor as a place a form got to before failing.
  mutating func noteFarthest() {
    farthest = max(farthest, index)
  }
}
