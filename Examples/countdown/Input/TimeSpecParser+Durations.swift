extension TimeSpecParser {
  /// The whole text as a duration: a number of seconds (`90`, `2.5`), `H:MM:SS`, or numbers with
  /// units, largest first, each once (`1h30m`, `'1h 5m 30s'`, `'2 hours, 30 minutes'`, `1y`);
  /// `nil` when it is not shaped like one.
  mutating func durationForm() throws(Problem) -> Duration? {
    if let duration = try clockDuration() { return duration }
    return try unitDuration()
  }

  /// `H:MM:SS`: hours (any number of digits), minutes and seconds (two digits each).
  private mutating func clockDuration() throws(Problem) -> Duration? {
    let parts = scanner.attempt { scanner -> ([UInt8], [UInt8], [UInt8])? in
      guard let hours = scanner.digitText(), scanner.skip(UInt8(ascii: ":")), let minutes = scanner.digitText(),
        scanner.skip(UInt8(ascii: ":")), let seconds = scanner.digitText(), scanner.isAtEnd,
        minutes.count <= 2, seconds.count <= 2
      else { return nil }
      return (Self.significant(hours), minutes, seconds)
    }
    guard let (hours, minutesText, secondsText) = parts else { return nil }
    let minutes = Self.value(minutesText)
    let seconds = Self.value(secondsText)
    guard hours.count <= 9 else { throw .tooLong }
    let total = Int64(Self.value(hours) * 3_600 + minutes * 60 + seconds)
    guard minutesText.count == 2, secondsText.count == 2, minutes < 60, seconds < 60 else {
      let detail =
        minutesText.count < 2 || secondsText.count < 2
        ? "minutes and seconds take two digits each"
        : minutes >= 60 ? "minutes \(minutes) is not in 0...59" : "seconds \(seconds) is not in 0...59"
      throw .outOfRange(
        detail, suggestion: total <= TimeSpec.maximumDuration.components.seconds ? Self.clock(total) : nil)
    }
    guard Duration.seconds(total) <= TimeSpec.maximumDuration else { throw .tooLong }
    return .seconds(total)
  }

  /// `90`, `2.5`, `25m`, `1h30m`, `'1h 5m 30s'`, `'1 hour and 30 minutes'`.
  private mutating func unitDuration() throws(Problem) -> Duration? {
    guard var number = try decimal() else { return nil }
    if scanner.isAtEnd { return try Self.amount(number, unit: .seconds(1)) }
    var total = Duration.zero
    var previous: Duration?
    var inOrder = true
    while true {
      scanner.skipSpaces()
      let wordStart = scanner.index
      guard let unit = scanner.unit() else {
        scanner.noteFarthest()
        if scanner.letters() != nil { unknownUnit = wordStart..<scanner.index }
        return nil
      }
      if let previous, unit >= previous { inOrder = false }
      previous = unit
      total += try Self.amount(number, unit: unit)
      guard total <= TimeSpec.maximumDuration else { throw .tooLong }
      let joined = skipListSeparators()
      if scanner.isAtEnd && !joined { break }
      guard let next = try decimal() else {
        scanner.noteFarthest()
        return nil
      }
      number = next
    }
    guard inOrder else { throw .unitsOutOfOrder(suggestion: Self.units(total)) }
    return total
  }

  /// Spaces, and a comma or `and`, between the parts of a duration; whether a comma or `and` was read.
  private mutating func skipListSeparators() -> Bool {
    scanner.skipSpaces()
    let comma = scanner.skip(UInt8(ascii: ","))
    scanner.skipSpaces()
    let and = scanner.skipWord("and")
    scanner.skipSpaces()
    return comma || and
  }

  /// A number with an optional fraction: digits, then optionally `.` and digits.
  private mutating func decimal() throws(Problem) -> (whole: [UInt8], fraction: [UInt8])? {
    let number = scanner.attempt { scanner -> (whole: [UInt8], fraction: [UInt8])? in
      guard let whole = scanner.digitText() else { return nil }
      guard scanner.skip(UInt8(ascii: ".")) else { return (whole, []) }
      guard let fraction = scanner.digitText() else { return nil }
      return (whole, fraction)
    }
    guard let number else { return nil }
    guard number.fraction.count <= 18 else {
      throw .outOfRange("at most 18 digits after the point (attoseconds)", suggestion: nil)
    }
    return (Self.significant(number.whole), number.fraction)
  }

  /// `number` (whole digits without leading zeros, and fraction digits) times `unit`, exactly
  /// (rounded down to the attosecond).
  static func amount(_ number: (whole: [UInt8], fraction: [UInt8]), unit: Duration) throws(Problem) -> Duration {
    // Over 30 digits is over the maximum in any unit; up to 30 fit an Int128 with room for the unit.
    guard number.whole.count <= 30 else { throw .tooLong }
    let (unitSeconds, unitAttoseconds) = unit.components
    let unitCount = Int128(unitSeconds) * 1_000_000_000_000_000_000 + Int128(unitAttoseconds)
    var whole: Int128 = 0
    for digit in number.whole { whole = whole * 10 + Int128(digit - 48) }
    var fraction: Int128 = 0
    var scale: Int128 = 1
    for digit in number.fraction {
      fraction = fraction * 10 + Int128(digit - 48)
      scale *= 10
    }
    let (product, overflow) = whole.multipliedReportingOverflow(by: unitCount)
    guard !overflow else { throw .tooLong }
    // fraction × unit / scale without overflow: unit = q × scale + r.
    let (q, r) = unitCount.quotientAndRemainder(dividingBy: scale)
    let attoseconds = product + fraction * q + fraction * r / scale
    let maximum = Int128(TimeSpec.maximumDuration.components.seconds) * 1_000_000_000_000_000_000
    guard attoseconds <= maximum else { throw .tooLong }
    let (seconds, rest) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
    return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(rest))
  }

  /// `seconds` as `H:MM:SS`.
  static func clock(_ seconds: Int64) -> String {
    "\(seconds / 3_600):\(twoDigits(Int(seconds % 3_600 / 60))):\(twoDigits(Int(seconds % 60)))"
  }

  /// `duration` in units, largest first: `1h30m`, `2d`, `1.5s`.
  static func units(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    var text = ""
    var rest = seconds
    for (unit, name) in [(Int64(86_400), "d"), (3_600, "h"), (60, "m")] where rest >= unit {
      text += "\(rest / unit)\(name)"
      rest %= unit
    }
    if rest > 0 || attoseconds > 0 || text.isEmpty {
      var fraction = attoseconds > 0 ? String(String(attoseconds + 1_000_000_000_000_000_000).dropFirst()) : ""
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += fraction.isEmpty ? "\(rest)s" : "\(rest).\(fraction)s"
    }
    return text
  }

  /// The unit words with their lengths, longest word first so that `ms` is not read as `m`.
  static let unitWords: [(word: String, length: Duration)] = {
    let day = Duration.seconds(86_400)
    let units: [(words: [String], length: Duration)] = [
      (["years", "year", "yrs", "yr", "y"], TimeSpec.year),
      (["weeks", "week", "wks", "wk", "w"], day * 7),
      (["days", "day", "d"], day),
      (["hours", "hour", "hrs", "hr", "h"], .seconds(3_600)),
      (["minutes", "minute", "mins", "min", "m"], .seconds(60)),
      (["seconds", "second", "secs", "sec", "s"], .seconds(1)),
      (["milliseconds", "millisecond", "msecs", "msec", "ms"], .milliseconds(1)),
    ]
    return units.flatMap { unit in unit.words.map { ($0, unit.length) } }.sorted { $0.word.count > $1.word.count }
  }()
}

extension ASCIIScanner {
  /// A unit word not followed by another letter.
  fileprivate mutating func unit() -> Duration? {
    for (word, length) in TimeSpecParser.unitWords where skipWord(word) {
      return length
    }
    return nil
  }
}
