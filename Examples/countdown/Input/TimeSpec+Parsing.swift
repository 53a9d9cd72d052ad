internal import Foundation

extension TimeSpec {
  /// Parses a `<time>` argument.
  ///
  /// Accepted forms (case-insensitive, surrounding spaces ignored, digits of any script; see
  /// ``DecimalDigits``):
  /// - a duration with units, largest first, each at most once, with or without spaces between
  ///   the parts: `90s`, `25m`, `1h30m`, `'1h 5m 30s'`, `1.5h`, `2d`, `500ms` (units `d`/`day`/`days`,
  ///   `h`/`hr`/`hour`/`hours`, `m`/`min`/`minute`/`minutes`, `s`/`sec`/`second`/`seconds`, `ms`);
  /// - a bare number, in seconds: `10`, `2.5`;
  /// - a duration as a clock reading with three parts, `H:MM:SS`: `1:30:00`, `0:05:00`;
  /// - a time of day, `H:MM` in 24-hour time or with `am`/`pm`: `18:00`, `9:30`, `6pm`, `6:30 pm`;
  /// - a date: `2027-01-01` (local midnight), `2027-01-01 14:00` or `2026-12-31T23:59:59` (local
  ///   time), and with a zone for an instant: `2026-12-31T23:59:59Z`, `'2027-01-01 14:00 UTC'`,
  ///   `'2027-01-01 14:00 +02:00'` (offsets up to ±18:00).
  ///
  /// Two numbers with a colon are always a time of day (as on a wall clock), never minutes and
  /// seconds, so `5:00` means five o'clock; write `5m` or `0:05:00` for five minutes.
  public init(parsing text: String) throws(TimeSpecError) {
    let input = DecimalDigits.trimmingSpaces(text)
    func failure(_ problem: TimeSpecError.Problem) -> TimeSpecError {
      TimeSpecError(input: input, problem: problem)
    }
    guard let bytes = DecimalDigits.normalizedASCII(text), !bytes.isEmpty else { throw failure(.unrecognized) }
    if bytes[0] == UInt8(ascii: "-"), bytes.count > 1, ASCIIScanner.isDigit(bytes[1]) { throw failure(.negative) }
    do {
      if let fields = try DateTimeFields.parse(bytes) {
        self = fields.date().map(TimeSpec.date) ?? .localDate(fields.components)
        return
      }
    } catch {
      switch error {
      case .outOfRange(let detail): throw failure(.outOfRange(detail))
      case .noSuchDay: throw failure(.noSuchTime)
      case .offsetTooLarge(let offset): throw failure(.offsetTooLarge(offset))
      }
    }
    do throws(TimeSpecError.Problem) {
      if let spec = try Self.twelveHourTime(bytes) {
        self = spec
      } else if let spec = try Self.colonForm(bytes) {
        self = spec
      } else if let spec = try Self.unitDuration(bytes) {
        self = spec
      } else {
        throw .unrecognized
      }
    } catch {
      throw failure(error)
    }
  }

  /// `6pm`, `6:30pm`, `6:30 pm`.
  private static func twelveHourTime(_ bytes: [UInt8]) throws(TimeSpecError.Problem) -> TimeSpec? {
    var scanner = ASCIIScanner(bytes)
    guard let hour = scanner.number(digits: 1, 2) else { return nil }
    var minute: Int64 = 0
    if scanner.skip(UInt8(ascii: ":")) {
      guard let value = scanner.number(digits: 2, 2) else { return nil }
      minute = value.value
    }
    scanner.skipSpaces()
    let isPM = scanner.skip("pm")
    guard isPM || scanner.skip("am"), scanner.isAtEnd else { return nil }
    try check(hour.value, in: 1...12, "hour")
    try check(minute, in: 0...59, "minute")
    return .timeOfDay(hour: Int(hour.value) % 12 + (isPM ? 12 : 0), minute: Int(minute), second: 0)
  }

  /// `18:00` (a time of day) or `1:30:00` (a duration).
  private static func colonForm(_ bytes: [UInt8]) throws(TimeSpecError.Problem) -> TimeSpec? {
    var scanner = ASCIIScanner(bytes)
    guard let first = scanner.digitText(maximum: 30), scanner.skip(UInt8(ascii: ":")),
      let minutes = scanner.number(digits: 2, 2)
    else { return nil }
    if scanner.isAtEnd {
      guard first.count <= 2, let hour = ASCIIScanner(first).numberValue, hour < 24 else { throw .notATimeOfDay }
      try check(minutes.value, in: 0...59, "minute")
      return .timeOfDay(hour: Int(hour), minute: Int(minutes.value), second: 0)
    }
    guard scanner.skip(UInt8(ascii: ":")), let seconds = scanner.number(digits: 2, 2), scanner.isAtEnd else {
      return nil
    }
    try check(minutes.value, in: 0...59, "minutes")
    try check(seconds.value, in: 0...59, "seconds")
    guard first.count <= 9, let hours = ASCIIScanner(first).numberValue else { throw .tooLong }
    let total = Duration.seconds(hours * 3_600 + minutes.value * 60 + seconds.value)
    guard total <= maximumDuration else { throw .tooLong }
    return .duration(total)
  }

  /// `90`, `2.5`, `25m`, `1h30m`, `'1h 5m 30s'`.
  private static func unitDuration(_ bytes: [UInt8]) throws(TimeSpecError.Problem) -> TimeSpec? {
    var scanner = ASCIIScanner(bytes)
    guard let firstNumber = scanner.decimalText() else { return nil }
    if scanner.isAtEnd { return .duration(try amount(firstNumber, unit: .seconds(1))) }
    var number: (whole: [UInt8], fraction: [UInt8])? = firstNumber
    var total = Duration.zero
    var previousUnit: Duration?
    while let current = number {
      scanner.skipSpaces()
      guard let unit = scanner.unit() else { return nil }
      if let previousUnit, unit >= previousUnit {
        throw .outOfRange("units go from largest to smallest, each once")
      }
      previousUnit = unit
      total += try amount(current, unit: unit)
      guard total <= maximumDuration else { throw .tooLong }
      if scanner.isAtEnd { return .duration(total) }
      scanner.skipSpaces()
      number = scanner.decimalText()
    }
    return nil
  }

  /// `number` (whole digits and fraction digits) times `unit`, exactly (rounded down to the attosecond).
  private static func amount(
    _ number: (whole: [UInt8], fraction: [UInt8]), unit: Duration
  ) throws(TimeSpecError.Problem) -> Duration {
    let (unitSeconds, unitAttoseconds) = unit.components
    let unitCount = Int128(unitSeconds) * 1_000_000_000_000_000_000 + Int128(unitAttoseconds)
    var whole: Int128 = 0
    for digit in number.whole { whole = whole * 10 + Int128(digit - 48) }  // At most 30 digits: fits.
    var fraction: Int128 = 0
    var scale: Int128 = 1
    for digit in number.fraction {  // At most 18 digits.
      fraction = fraction * 10 + Int128(digit - 48)
      scale *= 10
    }
    let (product, overflow) = whole.multipliedReportingOverflow(by: unitCount)
    guard !overflow else { throw .tooLong }
    // fraction × unit / scale without overflow: unit = q × scale + r.
    let (q, r) = unitCount.quotientAndRemainder(dividingBy: scale)
    let attoseconds = product + fraction * q + fraction * r / scale
    let maximum = Int128(maximumDuration.components.seconds) * 1_000_000_000_000_000_000
    guard attoseconds <= maximum else { throw .tooLong }
    let (seconds, rest) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
    return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(rest))
  }

  private static func check(
    _ value: Int64, in range: ClosedRange<Int64>, _ name: String
  ) throws(TimeSpecError.Problem) {
    guard range.contains(value) else {
      throw .outOfRange("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
    }
  }
}

extension ASCIIScanner {
  /// The value of the whole text, if it is 1...18 digits.
  fileprivate var numberValue: Int64? {
    var copy = self
    guard let value = copy.number(digits: 1, 18), copy.isAtEnd else { return nil }
    return value.value
  }

  /// A number with an optional fraction: up to 30 digits, then `.` and up to 18 digits.
  fileprivate mutating func decimalText() -> (whole: [UInt8], fraction: [UInt8])? {
    attempt { scanner in
      guard let whole = scanner.digitText(maximum: 30) else { return nil }
      guard scanner.skip(UInt8(ascii: ".")) else { return (whole, []) }
      guard let fraction = scanner.digitText(maximum: 18) else { return nil }
      return (whole, fraction)
    }
  }

  /// The unit words, longest first so that `ms` is not read as `m` and `min` not as `m` + garbage.
  private static let units: [(word: String, length: Duration)] = [
    ("milliseconds", .milliseconds(1)), ("millisecond", .milliseconds(1)), ("minutes", .seconds(60)),
    ("seconds", .seconds(1)), ("minute", .seconds(60)), ("second", .seconds(1)), ("hours", .seconds(3_600)),
    ("hour", .seconds(3_600)), ("days", .seconds(86_400)), ("mins", .seconds(60)), ("secs", .seconds(1)),
    ("msec", .milliseconds(1)), ("hrs", .seconds(3_600)), ("day", .seconds(86_400)), ("min", .seconds(60)),
    ("sec", .seconds(1)), ("hr", .seconds(3_600)), ("ms", .milliseconds(1)), ("d", .seconds(86_400)),
    ("h", .seconds(3_600)), ("m", .seconds(60)), ("s", .seconds(1)),
  ]

  /// A unit word not followed by another letter.
  fileprivate mutating func unit() -> Duration? {
    for (word, length) in Self.units {
      let found = attempt { scanner -> Duration? in
        guard scanner.skip(word), !(scanner.peek.map { (97...122).contains($0) } ?? false) else { return nil }
        return length
      }
      if let found { return found }
    }
    return nil
  }
}
