// Locale-independent number formatting and XML escaping for the SVG renderer.
//
// Both are written by hand: `formatted()` depends on a locale (`12,5`), and `description` prints `nan`,
// `inf`, `-0.0` and binary noise (`0.30000000000000004`).

extension RingSVG {
  /// The number of decimals ``number(_:)`` keeps: a hundredth of a point is a thirtieth of a pixel at 3×.
  package static let decimals = 2

  /// `10^decimals`: one unit of the last printed decimal is `1 / unitsPerPoint`.
  private static let unitsPerPoint: Int64 = (0..<decimals).reduce(1) { product, _ in product * 10 }

  /// `value` with at most ``decimals`` decimals and no trailing zeros, a `.` as the separator and no
  /// grouping, whatever the locale: `12.5`, `-3`, `0.01`. Never `-0`; NaN and infinities, which a sanitized
  /// geometry never produces, print as `0` rather than make the document invalid.
  package static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let scaled = (value * Double(unitsPerPoint)).rounded(.toNearestOrAwayFromZero)
    // Far beyond any drawing size, where the scaled value would not fit the exact integer path.
    guard scaled.magnitude < 0x1p53 else { return hugeNumber(value.rounded()) }
    let count = Int64(scaled)
    if count == 0 { return "0" }
    let (whole, fraction) = count.magnitude.quotientAndRemainder(dividingBy: unitsPerPoint.magnitude)
    var text = count < 0 ? "-" : ""
    text += String(whole)
    if fraction > 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: decimals - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
  }

  /// An integral `value` too large for the fixed-decimal path, in Swift's shortest round-tripping form,
  /// which is locale-independent and valid SVG: `90071992547409`, `1e+300`.
  private static func hugeNumber(_ value: Double) -> String {
    let text = value.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// `text` escaped for XML character data and double- or single-quoted attribute values: `&`, `<`, `>`,
  /// `"` and `'` become entities, and characters XML 1.0 forbids (control characters other than tab, line
  /// feed and carriage return; U+FFFE and U+FFFF) become U+FFFD, so any string yields a well-formed document.
  package static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
