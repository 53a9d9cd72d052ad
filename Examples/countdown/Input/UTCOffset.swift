/// An offset from UTC as written after a time: `+02:00`, `-0530`, `+2`.
struct UTCOffset: Equatable {
  /// 1 east of UTC, -1 west.
  var sign: Int
  var hours: Int
  var minutes: Int

  /// The largest offset from UTC a zone can have: 18 hours, as in ISO 8601 and Foundation's `TimeZone`.
  static let maximum = 18 * 3_600

  /// Seconds east of UTC.
  var seconds: Int { sign * (hours * 3_600 + minutes * 60) }

  /// Whether a zone can have it: minutes 0…59, within ±18:00.
  var isValid: Bool { minutes < 60 && hours * 3_600 + minutes * 60 <= Self.maximum }

  /// `±HH:MM`.
  var text: String {
    "\(sign < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
  }

  /// Reads `±H`, `±HH`, `±HHMM` or `±HH:MM`.
  static func read(_ scanner: inout ASCIIScanner) -> UTCOffset? {
    scanner.attempt { scanner -> UTCOffset? in
      let sign: Int
      if scanner.skip(UInt8(ascii: "+")) {
        sign = 1
      } else if scanner.skip(UInt8(ascii: "-")) {
        sign = -1
      } else {
        return nil
      }
      if let both = scanner.attempt({ $0.number(digits: 4, 4) }) {
        return UTCOffset(sign: sign, hours: Int(both.value / 100), minutes: Int(both.value % 100))
      }
      guard let hours = scanner.number(digits: 1, 2) else { return nil }
      guard scanner.skip(UInt8(ascii: ":")) else { return UTCOffset(sign: sign, hours: Int(hours.value), minutes: 0) }
      guard let minutes = scanner.number(digits: 2, 2) else { return nil }
      return UTCOffset(sign: sign, hours: Int(hours.value), minutes: Int(minutes.value))
    }
  }
}
