internal import Foundation

/// The grammar of `<time>`, read from the lowercase ASCII bytes of one argument (see
/// ``TimeSpec/init(parsing:dateOrder:)`` for how the text gets there and for the forms).
///
/// The whole text is read first as a duration, then as a reading of a wall clock. A form that
/// recognizes the text but finds it wrong (minute 75, units out of order) throws at once; text that
/// no form recognizes gets the part that the furthest attempt stopped at, and the nearest word that
/// would make it a time.
struct TimeSpecParser {
  typealias Problem = TimeSpecError.Problem

  var scanner: ASCIIScanner
  /// The text as typed, one scalar for each byte of `scanner`.
  let typed: [Unicode.Scalar]
  /// How to read `01/02/2027`, if a locale says.
  let dateOrder: DateOrder?
  /// Whether rejections look for a nearby word that would make the text a time.
  let suggests: Bool
  /// Where a number was followed by a word that is not a unit (`5 parsecs`).
  var unknownUnit: Range<Int>?

  init(bytes: [UInt8], typed: [Unicode.Scalar], dateOrder: DateOrder?, suggests: Bool) {
    scanner = ASCIIScanner(bytes)
    self.typed = typed
    self.dateOrder = dateOrder
    self.suggests = suggests
  }

  /// Reads the whole text.
  mutating func form() throws(Problem) -> TimeSpec.Form {
    if let duration = try durationForm() { return .duration(duration) }
    scanner.rewind()
    if let spec = try wallClockForm() { return .wallClock(spec) }
    throw rejection()
  }

  /// The text from `range` as typed.
  func typed(_ range: Range<Int>) -> String {
    String(String.UnicodeScalarView(typed[range]))
  }

  /// The text as typed with `range` replaced by `replacement`.
  func typed(replacing range: Range<Int>, with replacement: String) -> String {
    typed(0..<range.lowerBound) + replacement + typed(range.upperBound..<typed.count)
  }

  /// What to say about text that no form read.
  private func rejection() -> Problem {
    let bytes = scanner.bytes
    let at = scanner.farthest
    if let unit = unknownUnit, unit.lowerBound >= at {
      return .unknownUnit(typed(unit), suggestion: nearestTime(replacing: unit))
    }
    guard at < bytes.count else { return .incomplete }
    // The part: from the start of the word that the furthest attempt stopped in, to its end.
    var start = at
    while start > 0, ASCIIScanner.isLetter(bytes[start - 1]), ASCIIScanner.isLetter(bytes[start]) { start -= 1 }
    var end = at
    while end < bytes.count, !Self.isSeparator(bytes[end]) { end += 1 }
    let part = start..<max(end, start + 1)
    let shown = part == 0..<bytes.count ? nil : typed(part)
    if bytes.first == UInt8(ascii: "+"), let plain = accepted(typed(1..<typed.count)) {
      return .unrecognized(part: shown, suggestion: plain)
    }
    return .unrecognized(part: shown, suggestion: nearestTime(replacing: part))
  }

  static func isSeparator(_ byte: UInt8) -> Bool {
    byte == 32 || byte == 9 || byte == UInt8(ascii: ",")
  }

  /// The text with the word in `range` replaced by the nearest word of the grammar, if that is a time.
  private func nearestTime(replacing range: Range<Int>) -> String? {
    guard suggests else { return nil }
    let word = String(decoding: scanner.bytes[range], as: UTF8.self)
    var letters = word.prefix { $0.isLetter }
    // `5minuts`: the word after the number.
    if letters.isEmpty, let first = word.firstIndex(where: { $0.isLetter }) {
      letters = word[first...].prefix { $0.isLetter }
    }
    guard letters.count >= 3 else { return nil }
    let offset = range.lowerBound + word.distance(from: word.startIndex, to: letters.startIndex)
    let lettersRange = offset..<(offset + letters.count)
    let limit = letters.count >= 6 ? 2 : 1
    let typedWord = Array(letters.utf8)
    var rows = DistanceRows()
    let candidates = Self.vocabulary.compactMap { word in
      rows.distance(typedWord, word, limit: limit).flatMap {
        $0 > 0 ? (String(decoding: word, as: UTF8.self), $0) : nil
      }
    }.sorted { $0.1 < $1.1 }
    for (candidate, _) in candidates {
      if let text = accepted(typed(replacing: lettersRange, with: candidate)) { return text }
    }
    return nil
  }

  /// `text` if it is a time (read without looking for suggestions), else `nil`.
  private func accepted(_ text: String) -> String? {
    (try? TimeSpec.parse(text, dateOrder: dateOrder, suggests: false)) != nil ? text : nil
  }

  /// The words of the grammar, for suggestions.
  static let vocabulary: [[UInt8]] =
    (["today", "tomorrow", "noon", "midnight", "am", "pm"] + monthNames + weekdayNames + unitWords.map(\.word)
    + ZoneAbbreviations.all).map { Array($0.utf8) }

  /// The edit distance of `a` and `b` (insertions, deletions, substitutions, swaps of neighbours), or
  /// `nil` when it is over `limit`.
  static func distance(_ a: some StringProtocol, _ b: some StringProtocol, limit: Int) -> Int? {
    var rows = DistanceRows()
    return rows.distance(Array(a.utf8), Array(b.utf8), limit: limit)
  }

  /// The value of ASCII digits (at most 18).
  static func value(_ digits: some Collection<UInt8>) -> Int {
    digits.reduce(0) { $0 * 10 + Int($1 - 48) }
  }

  /// `digits` without leading zeros (one zero for zero).
  static func significant(_ digits: [UInt8]) -> [UInt8] {
    let trimmed = digits.drop { $0 == 48 }
    return trimmed.isEmpty ? [48] : Array(trimmed)
  }

  /// `value` with at least two digits.
  static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
