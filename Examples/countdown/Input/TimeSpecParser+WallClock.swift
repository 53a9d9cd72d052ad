internal import Foundation

extension TimeSpecParser {
  /// The whole text as a reading of a wall clock: a day or a date, a time of day, and a zone after
  /// one of them, in any order, separated by spaces, commas, `at` or `on` (`fri 14:00`, `9:30
  /// tomorrow`, `'January 1, 2027 at 2pm'`); a zone may follow a time without a space (`18:00Z`).
  /// `nil` when the text is not shaped like one.
  mutating func wallClockForm() throws(Problem) -> WallClockSpec? {
    var day: WallClockSpec.Day?
    var weekday: (number: Int, name: String)?
    var time: ClockTime?
    var zone: WallClockSpec.Zone?
    var isFirst = true
    while true {
      let separated = skipSeparators()
      if scanner.isAtEnd { break }
      defer { isFirst = false }
      if !isFirst && !separated {
        guard time != nil, zone == nil, let found = try zoneForm() else {
          scanner.noteFarthest()
          return nil
        }
        zone = found
        continue
      }
      if !isFirst, zone == nil, let found = try zoneForm() {
        zone = found
        continue
      }
      if day == nil, let found = try dateForm() {
        day = found.day
        if let foundTime = found.time {
          guard time == nil else { return nil }
          time = foundTime
        }
        continue
      }
      if day == nil, weekday == nil, let found = weekdayWord() {
        weekday = found
        continue
      }
      if day == nil, weekday == nil, let found = dayWord() {
        day = found
        continue
      }
      if time == nil, let found = try clockTime() {
        time = found
        continue
      }
      scanner.noteFarthest()
      let start = scanner.index
      if isFirst, (try? zoneForm()) != nil {
        let end = scanner.index
        if scanner.isAtEnd || skipSeparators() { throw .zoneWithoutTime(typed(start..<end)) }
      }
      return nil
    }
    guard day != nil || weekday != nil || time != nil else { return nil }
    if let weekday {
      switch day {
      case nil:
        day = .weekday(weekday.number)
      case .date(let year?, let month, let dayOfMonth)?:
        let days = DateTimeFields.daysSince1970(year: year, month: month, day: dayOfMonth)
        // 1970-01-01 was a Thursday (5 in Calendar's numbering, where 1 is Sunday).
        let actual = Int(((days + 4) % 7 + 7) % 7) + 1
        guard actual == weekday.number else {
          throw .weekdayMismatch(
            date: Self.iso(year, month, dayOfMonth), typed: weekday.name,
            actual: Self.weekdayNames[actual - 1].capitalized)
        }
      case .date(nil, _, _)?:
        throw .outOfRange("with a weekday, give the year too", suggestion: nil)
      default:
        break
      }
    }
    return WallClockSpec(day: day ?? .next, time: time, zone: zone ?? .local)
  }

  /// Skips spaces, commas and the words `at` and `on`; returns whether anything was skipped.
  private mutating func skipSeparators() -> Bool {
    let start = scanner.index
    while scanner.skipSpaces() > 0 || scanner.skip(UInt8(ascii: ",")) || scanner.skipWord("at")
      || scanner.skipWord("on")
    {}
    return scanner.index > start
  }

  // MARK: Days and dates

  /// A date: `2027-01-01` (also with `/` or `.`), `2027-01-01T14:00`, `20270101T140000`,
  /// `01/02/2027`, `01.02.2027`, `Jan 1 2027`, `1 Jan 2027`, `'January 1, 2027'`, `Jan 1`; with the
  /// time of day when the form includes one.
  private mutating func dateForm() throws(Problem) -> (day: WallClockSpec.Day, time: ClockTime?)? {
    if let found = try yearFirstDate() { return found }
    if let found = try basicDateTime() { return found }
    if let found = try numericDate() { return (found, nil) }
    if let found = try namedDate() { return (found, nil) }
    return nil
  }

  /// `YYYY-MM-DD`, `YYYY/MM/DD` or `YYYY.MM.DD` (month and day may have one digit), optionally
  /// followed by `T` and a time.
  private mutating func yearFirstDate() throws(Problem) -> (WallClockSpec.Day, ClockTime?)? {
    let fields = scanner.attempt { scanner -> (Int, Int, Int)? in
      guard let year = scanner.number(digits: 4, 4), let separator = scanner.peek,
        [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")].contains(separator), scanner.skip(separator),
        let month = scanner.number(digits: 1, 2), scanner.skip(separator), let day = scanner.number(digits: 1, 2)
      else { return nil }
      return (Int(year.value), Int(month.value), Int(day.value))
    }
    guard let (year, month, day) = fields else { return nil }
    let date = try Self.validDate(year: year, month: month, day: day)
    guard scanner.peek == UInt8(ascii: "t"), scanner.bytes.count > scanner.index + 1,
      ASCIIScanner.isDigit(scanner.bytes[scanner.index + 1])
    else { return (date, nil) }
    _ = scanner.skip(UInt8(ascii: "t"))
    guard let time = try clockTime() else {
      scanner.noteFarthest()
      throw .outOfRange("after T comes a time, HH:MM or HH:MM:SS", suggestion: Self.iso(year, month, day) + "T14:00")
    }
    return (date, time)
  }

  /// ISO 8601's basic form: `20270101T1400` or `20270101T140000`, with an optional fraction.
  private mutating func basicDateTime() throws(Problem) -> (WallClockSpec.Day, ClockTime?)? {
    let fields = scanner.attempt { scanner -> (date: Int64, time: [UInt8], fraction: [UInt8])? in
      guard let date = scanner.number(digits: 8, 8), scanner.skip(UInt8(ascii: "t")),
        let time = scanner.digitText(maximum: 6), time.count == 4 || time.count == 6
      else { return nil }
      guard scanner.skip(UInt8(ascii: ".")) else { return (date.value, time, []) }
      guard let fraction = scanner.digitText(maximum: 9) else { return nil }
      return (date.value, time, fraction)
    }
    guard let fields else { return nil }
    let year = Int(fields.date / 10_000)
    let date = try Self.validDate(year: year, month: Int(fields.date / 100 % 100), day: Int(fields.date % 100))
    let hour = Self.value(fields.time.prefix(2))
    let minute = Self.value(fields.time.dropFirst(2).prefix(2))
    let second = Self.value(fields.time.dropFirst(4))
    let time = try Self.validTime(hour: hour, minute: minute, second: second, fraction: fields.fraction)
    return (date, time)
  }

  /// `DD/MM/YYYY` or `MM/DD/YYYY` (also with `-`), read by ``dateOrder`` or, without one, the only
  /// reading that is a date; `DD.MM.YYYY`, always day first.
  private mutating func numericDate() throws(Problem) -> WallClockSpec.Day? {
    let fields = scanner.attempt { scanner -> (Int, Int, UInt8, [UInt8], Range<Int>)? in
      guard let first = scanner.number(digits: 1, 2), let separator = scanner.peek,
        [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(separator), scanner.skip(separator),
        let second = scanner.number(digits: 1, 2), scanner.skip(separator)
      else { return nil }
      let yearStart = scanner.index
      guard let year = scanner.digitText(maximum: 4) else { return nil }
      return (Int(first.value), Int(second.value), separator, year, yearStart..<scanner.index)
    }
    guard let (first, second, separator, yearDigits, yearRange) = fields else { return nil }
    guard yearDigits.count == 4 else {
      guard yearDigits.count == 2, separator == UInt8(ascii: "/") else { return nil }
      throw .twoDigitYear(
        suggestion: typed(replacing: yearRange, with: "20" + String(decoding: yearDigits, as: UTF8.self)))
    }
    let year = Self.value(yearDigits)
    let order: DateOrder?
    if separator == UInt8(ascii: ".") {
      order = .dayFirst
    } else if let dateOrder {
      order = dateOrder
    } else {
      let dayFirst = Self.isDate(year: year, month: second, day: first)
      let monthFirst = Self.isDate(year: year, month: first, day: second)
      if dayFirst && monthFirst && first != second {
        throw .ambiguousDate(dayFirst: Self.iso(year, second, first), monthFirst: Self.iso(year, first, second))
      }
      order = monthFirst && !dayFirst ? .monthFirst : .dayFirst
    }
    return order == .monthFirst
      ? try Self.validDate(year: year, month: first, day: second)
      : try Self.validDate(year: year, month: second, day: first)
  }

  /// `Jan 1`, `Jan 1 2027`, `'January 1st, 2027'`, `1 Jan`, `'1 January 2027'`.
  private mutating func namedDate() throws(Problem) -> WallClockSpec.Day? {
    let monthFirst = scanner.attempt { scanner -> (month: Int, day: Int)? in
      guard let month = scanner.monthWord() else { return nil }
      scanner.skipSpaces()
      guard let day = scanner.dayOfMonth() else { return nil }
      return (month, day)
    }
    let dayFirst =
      monthFirst != nil
      ? nil
      : scanner.attempt { scanner -> (month: Int, day: Int)? in
        guard let day = scanner.dayOfMonth() else { return nil }
        _ = scanner.skip(UInt8(ascii: "."))
        scanner.skipSpaces()
        guard let month = scanner.monthWord() else { return nil }
        return (month, day)
      }
    guard let (month, day) = monthFirst ?? dayFirst else { return nil }
    let year = scanner.attempt { scanner -> Int? in
      scanner.skipSpaces()
      if scanner.skip(UInt8(ascii: ",")) { scanner.skipSpaces() }
      guard let year = scanner.number(digits: 4, 4), scanner.peek != UInt8(ascii: ":") else { return nil }
      return Int(year.value)
    }
    return try Self.validDate(year: year, month: month, day: day)
  }

  /// `friday`, `fri`, `Fri.` (and `tues`, `weds`, `thur`, `thurs`): the weekday's number (1 is
  /// Sunday) and name.
  private mutating func weekdayWord() -> (number: Int, name: String)? {
    scanner.attempt { scanner -> (number: Int, name: String)? in
      guard let word = scanner.letters() else { return nil }
      let extra = ["tues": 3, "weds": 4, "thur": 5, "thurs": 5]
      guard
        let number = Self.weekdayNames.firstIndex(of: word).map({ $0 + 1 })
          ?? Self.weekdayNames.firstIndex(where: { $0.prefix(3) == word }).map({ $0 + 1 }) ?? extra[word]
      else { return nil }
      _ = scanner.skip(UInt8(ascii: "."))
      return (number, Self.weekdayNames[number - 1].capitalized)
    }
  }

  /// `today`, `tomorrow`.
  private mutating func dayWord() -> WallClockSpec.Day? {
    if scanner.skipWord("today") { return .today }
    if scanner.skipWord("tomorrow") { return .tomorrow }
    return nil
  }

  // MARK: Times of day

  /// `18:00`, `9:30`, `18:00:30.5`, `6pm`, `6p`, `'6 p.m.'`, `6:30:15pm`, `noon`, `midnight`.
  private mutating func clockTime() throws(Problem) -> ClockTime? {
    if scanner.skipWord("noon") { return ClockTime(hour: 12, minute: 0) }
    if scanner.skipWord("midnight") { return .midnight }
    typealias Reading = (hour: [UInt8], minute: [UInt8]?, second: [UInt8]?, fraction: [UInt8], pm: Bool?)
    let reading = scanner.attempt { scanner -> Reading? in
      guard let hour = scanner.digitText() else { return nil }
      var reading: Reading = (hour, nil, nil, [], nil)
      if scanner.skip(UInt8(ascii: ":")) {
        guard let minute = scanner.digitText(maximum: 2), minute.count == 2 else { return nil }
        reading.minute = minute
        if scanner.skip(UInt8(ascii: ":")) {
          guard let second = scanner.digitText(maximum: 2), second.count == 2 else { return nil }
          reading.second = second
          if scanner.skip(UInt8(ascii: ".")) {
            guard let fraction = scanner.digitText(maximum: 9) else { return nil }
            reading.fraction = fraction
          }
        }
      }
      reading.pm = scanner.meridiem()
      return reading.minute != nil || reading.pm != nil ? reading : nil
    }
    guard let reading else { return nil }
    let hourDigits = Self.significant(reading.hour)
    let hour = hourDigits.count <= 2 ? Self.value(hourDigits) : 100
    let minute = reading.minute.map(Self.value) ?? 0
    let second = reading.second.map(Self.value) ?? 0
    guard let pm = reading.pm else {
      guard hour <= 23 else {
        throw .notATimeOfDay(
          hour: String(decoding: reading.hour, as: UTF8.self), minute: Self.twoDigits(min(minute, 99)))
      }
      return try Self.validTime(hour: hour, minute: minute, second: second, fraction: reading.fraction)
    }
    guard (1...12).contains(hour) else {
      let marker = pm ? "pm" : "am"
      let suggestion: String? =
        hour == 0
        ? "12\(marker) or 0:\(Self.twoDigits(minute))"
        : hour <= 23 ? "\(hour):\(Self.twoDigits(minute)) or \(hour - 12):\(Self.twoDigits(minute))\(marker)" : nil
      throw .outOfRange(
        "hour \(String(decoding: reading.hour, as: UTF8.self)) is not in 1...12 with \(marker)", suggestion: suggestion)
    }
    return try Self.validTime(
      hour: hour % 12 + (pm ? 12 : 0), minute: minute, second: second, fraction: reading.fraction)
  }

  // MARK: Checks

  /// `.date` for these fields, or what is wrong with them. Without a year, any day some year has.
  static func validDate(year: Int?, month: Int, day: Int) throws(Problem) -> WallClockSpec.Day {
    guard (1...12).contains(month) else { throw .outOfRange("month \(month) is not in 1...12", suggestion: nil) }
    guard year != 0 else { throw .yearZero }
    let days = DateTimeFields.daysIn(month: month, year: year ?? 2000)
    guard (1...days).contains(day) else {
      guard (1...31).contains(day) else { throw .outOfRange("day \(day) is not in 1...31", suggestion: nil) }
      let name = monthNames[month - 1].capitalized
      guard let year else { throw .noSuchDay("\(name) has \(days) days", suggestion: "\(name) \(days)") }
      throw .noSuchDay("\(name) \(year) has \(days) days", suggestion: iso(year, month, days))
    }
    return .date(year: year, month: month, day: day)
  }

  /// Whether the fields are a date.
  static func isDate(year: Int, month: Int, day: Int) -> Bool {
    (1...12).contains(month) && (1...DateTimeFields.daysIn(month: month, year: year)).contains(day)
  }

  /// The time, or what is wrong with it.
  static func validTime(hour: Int, minute: Int, second: Int, fraction: [UInt8]) throws(Problem) -> ClockTime {
    guard hour <= 23 else { throw .notATimeOfDay(hour: "\(hour)", minute: twoDigits(minute)) }
    guard minute <= 59 else { throw .outOfRange("minute \(minute) is not in 0...59", suggestion: nil) }
    guard second <= 59 else { throw .outOfRange("second \(second) is not in 0...59", suggestion: nil) }
    var nanosecond = value(fraction)
    for _ in fraction.count..<9 { nanosecond *= 10 }
    return ClockTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  }

  /// `YYYY-MM-DD`.
  static func iso(_ year: Int, _ month: Int, _ day: Int) -> String {
    let digits = String(year)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-\(twoDigits(month))-\(twoDigits(day))"
  }

  /// The months' names in English, lowercase, from Foundation.
  static let monthNames = englishCalendar.monthSymbols.map { $0.lowercased() }

  /// The weekdays' names in English, lowercase, Sunday first, from Foundation.
  static let weekdayNames = englishCalendar.weekdaySymbols.map { $0.lowercased() }

  private static var englishCalendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    return calendar
  }
}

extension ASCIIScanner {
  /// `january`, `jan`, `sept`, optionally followed by a full stop: the month's number.
  fileprivate mutating func monthWord() -> Int? {
    attempt { scanner -> Int? in
      guard let word = scanner.letters(), word.count >= 3 else { return nil }
      let names = TimeSpecParser.monthNames
      guard
        let index = names.firstIndex(of: word) ?? names.firstIndex(where: { $0.prefix(3) == word })
          ?? (word == "sept" ? 8 : nil)
      else { return nil }
      _ = scanner.skip(UInt8(ascii: "."))
      return index + 1
    }
  }

  /// A day of the month, `1` or `01`, optionally with `st`, `nd`, `rd` or `th`.
  fileprivate mutating func dayOfMonth() -> Int? {
    attempt { scanner -> Int? in
      guard let day = scanner.number(digits: 1, 2) else { return nil }
      for suffix in ["st", "nd", "rd", "th"] where scanner.skipWord(suffix) { break }
      guard !scanner.nextIsLetter else { return nil }
      return Int(day.value)
    }
  }

  /// `am`, `pm`, `a`, `p`, `a.m.`, `p.m.`, after optional spaces: whether it is pm.
  fileprivate mutating func meridiem() -> Bool? {
    attempt { scanner -> Bool? in
      scanner.skipSpaces()
      let pm: Bool
      if scanner.skip(UInt8(ascii: "p")) {
        pm = true
      } else if scanner.skip(UInt8(ascii: "a")) {
        pm = false
      } else {
        return nil
      }
      if scanner.skip(UInt8(ascii: ".")) {
        guard scanner.skip(UInt8(ascii: "m")) else { return nil }
        _ = scanner.skip(UInt8(ascii: "."))
      } else {
        _ = scanner.skip(UInt8(ascii: "m"))
      }
      return scanner.nextIsLetter ? nil : pm
    }
  }
}
