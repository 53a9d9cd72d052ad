/// Numbers typed on the command line (option values, ids, a ring's progress), read by the rule of
/// ``DecimalDigits``: digits of any script, nothing else. `Int(_:)` and `Double(_:)` are not used on
/// the text directly: `Double` would take `1e3`, `nan`, `inf` and `0x1p3`.
enum NumberText {
  /// A whole number with an optional leading minus: `10`, `-5`, `๑๐`; `nil` for anything else or a
  /// value beyond `Int64`.
  static func integer(_ text: String) -> Int64? {
    guard var bytes = DecimalDigits.normalizedASCII(text), !bytes.isEmpty else { return nil }
    let negative = bytes[0] == UInt8(ascii: "-")
    if negative { bytes.removeFirst() }
    guard !bytes.isEmpty, bytes.count <= 19, bytes.allSatisfy(ASCIIScanner.isDigit) else { return nil }
    var value: Int64 = 0
    for byte in bytes {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = shifted.addingReportingOverflow(Int64(byte - 48))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return negative ? -value : value
  }

  /// A non-negative decimal number: digits with an optional fraction after a full stop (`0.75`,
  /// `120`, `๐.๕`); `nil` for anything else.
  static func decimal(_ text: String) -> Double? {
    guard let bytes = DecimalDigits.normalizedASCII(text), !bytes.isEmpty else { return nil }
    var scanner = ASCIIScanner(bytes)
    guard scanner.digitText(maximum: 30) != nil else { return nil }
    if scanner.skip(UInt8(ascii: ".")), scanner.digitText(maximum: 30) == nil { return nil }
    guard scanner.isAtEnd else { return nil }
    return Double(String(decoding: bytes, as: UTF8.self))
  }
}
