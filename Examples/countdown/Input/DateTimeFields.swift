import Foundation

/// A date and time of day as written: `YYYY-MM-DD`, then optionally `T` or a space and `HH:MM`,
/// `HH:MM:SS` or `HH:MM:SS.fraction`, then optionally (after spaces) a zone: `Z`, `UTC`, `GMT`, or
/// an offset `±HH`, `±HHMM`, `±HH:MM` of at most 18 hours.
///
/// Read from ASCII (after ``DecimalDigits/normalizedASCII(_:)``) without Foundation's parsers, and
/// turned into a `Date` with integer arithmetic on the proleptic Gregorian calendar, so that
/// nothing in here depends on the locale or can trap.
struct DateTimeFields: Equatable, Sendable {
  /// The year, 0000…9999.
  var year: Int
  /// The month, 1…12.
  var month: Int
  /// The day of the month, valid for the month and year.
  var day: Int
  /// The hour, 0…23 (0 when only a date was written).
  var hour = 0
  /// The minute, 0…59.
  var minute = 0
  /// The second, 0…59.
  var second = 0
  /// The fraction of the second, in nanoseconds.
  var nanosecond = 0
  /// Whether a time of day was written (otherwise the date means its midnight).
  var hasTime = false
  /// The offset from UTC in seconds, when the text names a zone; `nil` for a local date and time.
  var utcOffset: Int?

  /// The instant these fields stand for at `utcOffset`, or at `assumedOffset` when the text names
  /// no zone; `nil` when neither gives an offset.
  func date(assumingOffset assumedOffset: Int? = nil) -> Date? {
    guard let offset = utcOffset ?? assumedOffset else { return nil }
    let days = Self.daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
    return Date(timeIntervalSince1970: Double(seconds) + Double(nanosecond) / 1e9)
  }

  /// The fields as `DateComponents`, for reading a local date in a calendar.
  var components: DateComponents {
    DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      nanosecond: nanosecond == 0 ? nil : nanosecond)
  }

  /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`).
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// How many days `month` of `year` has.
  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

extension DateTimeFields {
  /// Why text shaped like a date is not one.
  enum Problem: Error, Equatable, Sendable {
    /// A field out of its range, described: "month 13 is not in 1...12".
    case outOfRange(String)
    /// A day the month does not have: February 30.
    case noSuchDay
    /// An offset beyond ±18:00, as written.
    case offsetTooLarge(String)
  }

  /// Reads a date and time from the whole of `bytes`.
  ///
  /// - Returns: `nil` when the text is not shaped like a date (so that other forms can be tried).
  /// - Throws: ``Problem`` when it is, but a field is out of range.
  static func parse(_ bytes: [UInt8]) throws(Problem) -> DateTimeFields? {
    var scanner = ASCIIScanner(bytes)
    guard let fields = try parse(&scanner), scanner.isAtEnd else { return nil }
    return fields
  }

  static func parse(_ scanner: inout ASCIIScanner) throws(Problem) -> DateTimeFields? {
    let dateParts = scanner.attempt { scanner -> (Int64, Int64, Int64)? in
      guard let year = scanner.number(digits: 4, 4), scanner.skip(UInt8(ascii: "-")),
        let month = scanner.number(digits: 2, 2), scanner.skip(UInt8(ascii: "-")),
        let day = scanner.number(digits: 2, 2)
      else { return nil }
      return (year.value, month.value, day.value)
    }
    guard let (year, month, day) = dateParts else { return nil }
    try check(month, 1...12, "month")
    var fields = DateTimeFields(year: Int(year), month: Int(month), day: Int(day))
    guard (1...Int64(daysIn(month: fields.month, year: fields.year))).contains(day) else {
      throw day >= 1 && day <= 31 ? .noSuchDay : .outOfRange("day \(day) is not in 1...31")
    }
    let time = scanner.attempt { scanner -> (Int64, Int64, Int64, Int64)? in
      guard scanner.skip(UInt8(ascii: "t")) || scanner.skipSpaces() > 0,
        let hour = scanner.number(digits: 2, 2), scanner.skip(UInt8(ascii: ":")),
        let minute = scanner.number(digits: 2, 2)
      else { return nil }
      var second: Int64 = 0
      var nanosecond: Int64 = 0
      if scanner.skip(UInt8(ascii: ":")) {
        guard let value = scanner.number(digits: 2, 2) else { return nil }
        second = value.value
        if scanner.skip(UInt8(ascii: ".")) {
          guard let fraction = scanner.number(digits: 1, 9) else { return nil }
          nanosecond = fraction.value
          for _ in fraction.count..<9 { nanosecond *= 10 }
        }
      }
      return (hour.value, minute.value, second, nanosecond)
    }
    guard let (hour, minute, second, nanosecond) = time else { return fields }
    try check(hour, 0...23, "hour")
    try check(minute, 0...59, "minute")
    try check(second, 0...59, "second")
    fields.hour = Int(hour)
    fields.minute = Int(minute)
    fields.second = Int(second)
    fields.nanosecond = Int(nanosecond)
    fields.hasTime = true
    fields.utcOffset = try zone(&scanner)
    return fields
  }

  /// A zone after the time, if any: `Z`, `UTC`, `GMT` or `±HH[[:]MM]`, possibly after spaces.
  private static func zone(_ scanner: inout ASCIIScanner) throws(Problem) -> Int? {
    let offset = scanner.attempt { scanner -> UTCOffset? in
      scanner.skipSpaces()
      if scanner.skip("utc") || scanner.skip("gmt") || scanner.skip(UInt8(ascii: "z")) {
        return UTCOffset(sign: 1, hours: 0, minutes: 0)
      }
      return UTCOffset.read(&scanner)
    }
    guard let offset else { return nil }
    try check(Int64(offset.minutes), 0...59, "offset minutes")
    guard offset.isValid else { throw .offsetTooLarge(offset.text) }
    return offset.seconds
  }

  private static func check(_ value: Int64, _ range: ClosedRange<Int64>, _ name: String) throws(Problem) {
    guard range.contains(value) else {
      throw .outOfRange("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
    }
  }
}
