/// The one rule for digits, used wherever the command reads a number: in a `<time>`, in a numeric
/// option, in an order id, in a date stored in the database.
///
/// **Every Unicode decimal digit counts as its value.** A decimal digit is a scalar of general
/// category Nd: ASCII `0`–`9`, and the digits of other scripts, such as Thai `๑๒:๓๐` (12:30),
/// Arabic-Indic `١٢`, Devanagari `१२`, fullwidth `１２` or mathematical `𝟏𝟐`. A number may mix scripts
/// (`2٣` is 23). Characters that are numeric without being decimal digits are *not* digits and make
/// the input invalid: superscripts (`²`), fractions (`½`), Roman numerals (`Ⅻ`), circled numbers (`①`),
/// CJK numerals (`三`). A digit followed by a combining mark is not a digit either.
///
/// Input is first rewritten with ASCII digits (``asciiDigits(_:)``), then parsed as ASCII; error
/// messages show the ASCII reading when it differs from what was typed.
enum DecimalDigits {
  /// The value of `scalar` as a decimal digit, or `nil` if it is not one.
  static func value(of scalar: Unicode.Scalar) -> UInt8? {
    if scalar.isASCII {
      return (48...57).contains(scalar.value) ? UInt8(scalar.value - 48) : nil
    }
    let properties = scalar.properties
    guard properties.numericType == .decimal, let value = properties.numericValue,
      value >= 0, value <= 9, value.rounded(.towardZero) == value
    else { return nil }
    return UInt8(value)
  }

  /// `text` with every decimal digit written as its ASCII digit; every other scalar is kept.
  static func asciiDigits(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if !scalar.isASCII, let digit = value(of: scalar) {
        scalars.append(Unicode.Scalar(48 + digit))
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// `text` as lowercase ASCII bytes with its digits mapped to ASCII and any Unicode space turned
  /// into a plain space, leading and trailing spaces removed; `nil` if another non-ASCII scalar is left.
  ///
  /// The common first step of every parser here: what comes out holds only ASCII, so the parsers
  /// never meet a digit that `Int(_:)` would refuse.
  static func normalizedASCII(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        let byte = UInt8(scalar.value)
        bytes.append((65...90).contains(byte) ? byte + 32 : byte)
      } else if let digit = value(of: scalar) {
        bytes.append(48 + digit)
      } else if scalar.properties.isWhitespace {
        bytes.append(32)
      } else {
        return nil
      }
    }
    let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return Array(bytes[first...last])
  }

  /// `text` without leading and trailing whitespace (any Unicode space).
  static func trimmingSpaces(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}
