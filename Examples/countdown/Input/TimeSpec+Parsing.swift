internal import Foundation

extension TimeSpec {
  /// Parses a `<time>` argument: a duration, or a reading of a wall clock (``TimeSpec/forms`` lists
  /// every form with an example).
  ///
  /// Rules, as `countdown help run` states them:
  /// - Case does not matter; spaces around are ignored; a Unicode space counts as a space.
  /// - Every Unicode decimal digit counts as its value (see ``DecimalDigits``); other numeric
  ///   characters (`²`, `½`, `Ⅻ`), letters of other scripts, control and invisible characters are
  ///   an error that names them.
  /// - Numbers with colons: `H:MM` is a time of day (`5:00` is five o'clock), `H:MM:SS` a duration
  ///   (`0:05:00` is five minutes) unless a day, a zone or am/pm goes with it.
  /// - `01/02/2027` is read in `dateOrder` if given; without one, the only reading that is a date,
  ///   or an error naming both. `01.02.2027` is always day first, `2027/01/02` year first.
  /// - A zone abbreviation is a fixed offset (`EST` is −05:00 all year); an ambiguous one (`IST`) is
  ///   an error listing its meanings.
  /// - Durations are at most ``maximumDuration``; a year is 365.25 days.
  init(parsing text: String, dateOrder: DateOrder? = nil) throws(TimeSpecError) {
    self = try Self.parse(text, dateOrder: dateOrder, suggests: true)
  }

  /// ``init(parsing:dateOrder:)``, with `suggests` false when checking a suggestion.
  static func parse(_ text: String, dateOrder: DateOrder?, suggests: Bool) throws(TimeSpecError) -> TimeSpec {
    let all = Array(text.unicodeScalars)
    let first = all.firstIndex { !$0.properties.isWhitespace } ?? all.endIndex
    let last = all.lastIndex { !$0.properties.isWhitespace } ?? first
    let typed = first < all.endIndex ? Array(all[first...last]) : []
    let input = String(String.UnicodeScalarView(typed))
    func failure(_ problem: TimeSpecError.Problem) -> TimeSpecError {
      TimeSpecError(input: input, problem: problem)
    }
    guard !typed.isEmpty else { throw failure(.unrecognized(part: nil, suggestion: nil)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(typed.count)
    for scalar in typed {
      guard let byte = byte(for: scalar) else {
        let visible = typed.filter { !TerminalText.isInvisible($0) || $0 == "\t" }
        let cleaned = String(String.UnicodeScalarView(visible))
        let isTime =
          suggests && visible.count < typed.count && (try? parse(cleaned, dateOrder: dateOrder, suggests: false)) != nil
        throw failure(.foreignCharacter(scalar, withoutInvisible: isTime ? cleaned : nil))
      }
      bytes.append(byte)
    }
    let dashes = bytes.prefix { $0 == UInt8(ascii: "-") }.count
    if dashes > 0, dashes < bytes.count, ASCIIScanner.isDigit(bytes[dashes]) { throw failure(.negative) }
    var parser = TimeSpecParser(bytes: bytes, typed: typed, dateOrder: dateOrder, suggests: suggests)
    do {
      return TimeSpec(input: input, form: try parser.form())
    } catch {
      throw failure(error)
    }
  }

  /// The byte that stands for `scalar` in the grammar: printable ASCII in lowercase, a decimal digit
  /// of any script as its ASCII digit, a tab or any Unicode space as a space; `nil` for anything else.
  private static func byte(for scalar: Unicode.Scalar) -> UInt8? {
    switch scalar.value {
    case 0x41...0x5A: return UInt8(scalar.value + 32)
    case 0x20...0x7E: return UInt8(scalar.value)
    case 0x09: return 32
    case 0...0x7F: return nil
    default:
      if let digit = DecimalDigits.value(of: scalar) { return 48 + digit }
      return scalar.properties.generalCategory == .spaceSeparator ? 32 : nil
    }
  }
}
