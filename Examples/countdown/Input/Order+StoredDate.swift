import CountdownKit
import Foundation

extension Order {
  /// ``date(_:)`` for a text column read in place as UTF-8 bytes (valid only during the call), with no
  /// allocation for the form the board itself stores: `yyyy-MM-dd HH:mm:ss.SSS` (or without the
  /// milliseconds), in UTC, in ASCII digits. That form is read here field by field; any other text
  /// (another form, other digits, a field out of range) goes through ``date(_:)`` and gets exactly its
  /// result and message.
  static func date(utf8 text: UnsafeRawBufferPointer) -> Result<Date?, InvalidDeadline> {
    if let date = storedDate(text) { return .success(date) }
    return date(.text(String(decoding: text, as: UTF8.self)))
  }

  /// `text` in the stored form, as ``DateTimeFields/date(assumingOffset:)`` computes it at UTC; nil for
  /// anything else.
  static func storedDate(_ text: UnsafeRawBufferPointer) -> Date? {
    guard text.count == 19 || text.count == 23, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
      text[10] == UInt8(ascii: " "), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
      text.count == 19 || text[19] == UInt8(ascii: ".")
    else { return nil }
    /// The number written in ASCII digits at `range`, or -1.
    func number(_ range: Range<Int>) -> Int {
      var value = 0
      for index in range {
        let digit = Int(text[index]) - 48
        guard (0...9).contains(digit) else { return -1 }
        value = value * 10 + digit
      }
      return value
    }
    let year = number(0..<4)
    let month = number(5..<7)
    let day = number(8..<10)
    let hour = number(11..<13)
    let minute = number(14..<16)
    let second = number(17..<19)
    let millisecond = text.count == 23 ? number(20..<23) : 0
    guard year >= 0, (1...12).contains(month), day >= 1, day <= DateTimeFields.daysIn(month: month, year: year),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second), millisecond >= 0
    else { return nil }
    var fields = DateTimeFields(year: year, month: month, day: day)
    fields.hour = hour
    fields.minute = minute
    fields.second = second
    fields.nanosecond = millisecond * 1_000_000
    fields.hasTime = true
    return fields.date(assumingOffset: 0)
  }
}
