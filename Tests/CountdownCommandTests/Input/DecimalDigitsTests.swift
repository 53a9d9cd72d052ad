import Foundation
import Testing

@testable import CountdownCommandLine

/// The one rule for digits (``DecimalDigits``): every Unicode decimal digit is its value, nothing else is a digit.
@Suite("Digits of every script")
struct DecimalDigitsTests {
  /// The zero of every decimal digit set in Unicode (general category Nd; each set is ten in a row).
  static let zeros: [Unicode.Scalar] = (0...0x10FFFF).compactMap { value -> Unicode.Scalar? in
    guard let scalar = Unicode.Scalar(value), scalar.properties.numericType == .decimal,
      scalar.properties.numericValue == 0
    else { return nil }
    return scalar
  }

  /// `ascii` written with the digits that start at `zero`.
  static func write(_ ascii: String, zero: Unicode.Scalar) -> String {
    String(
      String.UnicodeScalarView(
        ascii.unicodeScalars.map { scalar in
          guard let digit = scalar.properties.numericValue, scalar.isASCII,
            let mapped = Unicode.Scalar(zero.value + UInt32(digit))
          else { return scalar }
          return mapped
        }))
  }

  @Test("Every decimal digit set reads as its values, in every form of <time>")
  func everyScript() throws {
    #expect(Self.zeros.count >= 60, "Unicode has dozens of digit sets: \(Self.zeros.count)")
    for zero in Self.zeros {
      let examples: [(String, TimeSpec.Form)] = [
        ("12:30", Self.clock(12, 30)),
        ("6:05pm", Self.clock(18, 5)),
        ("1h 30m", .duration(.seconds(5_400))),
        ("1:30:00", .duration(.seconds(5_400))),
        ("90", .duration(.seconds(90))),
        (
          "2026-12-31T23:59:59Z",
          .wallClock(
            WallClockSpec(
              day: .date(year: 2026, month: 12, day: 31), time: ClockTime(hour: 23, minute: 59, second: 59),
              zone: .offset(seconds: 0)))
        ),
      ]
      for (ascii, expected) in examples {
        let text = Self.write(ascii, zero: zero)
        #expect(try TimeSpec(parsing: text).form == expected, "\(text) (U+\(String(zero.value, radix: 16)))")
      }
      #expect(NumberText.integer(Self.write("-42", zero: zero)) == -42)
      #expect(NumberText.decimal(Self.write("0.75", zero: zero)) == 0.75)
    }
  }

  @Test("Mixed scripts read digit by digit: 2٣:00 is 23:00, not 20:00")
  func mixed() throws {
    let utc = Calendar(identifier: .gregorian)
    #expect(
      try TimeSpec(parsing: "2026-12-31T2٣:00Z").resolved(now: Date(timeIntervalSince1970: 0), calendar: utc)
        == .deadline(Date(timeIntervalSince1970: 1_798_758_000)))
    #expect(try TimeSpec(parsing: "๑๒:๓๐").form == Self.clock(12, 30))
    #expect(try TimeSpec(parsing: "၁၈:၀၀").form == Self.clock(18, 0))
  }

  @Test(
    "Numeric characters that are not decimal digits are not digits",
    arguments: ["²", "½", "Ⅻ", "①", "三", "〇", "𝟙\u{301}", "٫", "⁵"])
  func notDigits(text: String) {
    #expect(text.unicodeScalars.allSatisfy { DecimalDigits.value(of: $0) == nil } || text.unicodeScalars.count > 1)
    #expect(NumberText.integer(text) == nil)
    #expect(NumberText.integer("1" + text) == nil)
    #expect(throws: TimeSpecError.self) { try TimeSpec(parsing: "1" + text + "m") }
  }

  @Test("Errors show the ASCII reading of what was typed")
  func messages() {
    #expect(throws: TimeSpecError.self) { try TimeSpec(parsing: "๒๕:๐๐") }
    do {
      _ = try TimeSpec(parsing: "๒๕:๐๐")
    } catch {
      #expect(error.description.hasPrefix("'๒๕:๐๐' (25:00) is not a time of day"), "\(error)")
    }
  }

  @Test("Numbers: whole and decimal, nothing Int() or Double() would add")
  func numbers() {
    #expect(NumberText.integer("10") == 10)
    #expect(NumberText.integer(" 7 ") == 7)
    #expect(NumberText.integer("9223372036854775807") == .max)
    #expect(NumberText.integer("-9223372036854775807") == -.max)
    for bad in ["", "-", "+5", "1e3", "0x10", "9223372036854775808", "99999999999999999999", "1.0", "1 0"] {
      #expect(NumberText.integer(bad) == nil, "\(bad)")
    }
    #expect(NumberText.decimal("0.75") == 0.75)
    #expect(NumberText.decimal("120") == 120)
    for bad in ["", ".5", "5.", "1e3", "nan", "inf", "0x1p3", "-1", "1.2.3"] {
      #expect(NumberText.decimal(bad) == nil, "\(bad)")
    }
  }

  @Test("Text for the terminal loses every control character and keeps the rest")
  func terminalText() {
    #expect(TerminalText.sanitized("\u{1B}]2;pwned\u{7}\u{1B}[2JFitting") == "]2;pwned[2JFitting")
    #expect(TerminalText.sanitized("a\tb\nc\r\nd") == "a b c  d")
    #expect(TerminalText.sanitized("\u{9B}31m red \u{202E}txt.exe") == "31m red txt.exe")
    #expect(TerminalText.sanitized("Ünïcödé 東京 🎉") == "Ünïcödé 東京 🎉")
    for value in 0..<0x20 where ![0x09, 0x0A, 0x0D].contains(value) {
      #expect(TerminalText.sanitized("a\(Character(Unicode.Scalar(UInt8(value))))b") == "ab")
    }
  }

  /// The next time the local clock shows `hour:minute`.
  static func clock(_ hour: Int, _ minute: Int) -> TimeSpec.Form {
    .wallClock(WallClockSpec(time: ClockTime(hour: hour, minute: minute)))
  }
}
