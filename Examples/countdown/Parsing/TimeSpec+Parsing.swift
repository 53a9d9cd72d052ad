import CountdownKit
import Foundation

extension TimeSpec {
  /// Parses a `<time>` argument.
  ///
  /// Accepted forms (case-insensitive, surrounding spaces ignored):
  /// - a duration with units, largest first, each at most once: `90s`, `25m`, `1h30m`, `1h 30m`,
  ///   `1.5h`, `2d`, `500ms` (units `d`, `h`, `m`/`min`, `s`/`sec`, `ms`); a bare number is seconds;
  /// - a duration as a clock reading with three parts, `H:MM:SS`: `1:30:00`, `0:05:00`;
  /// - a time of day, `H:MM` in 24-hour time or with `am`/`pm`: `18:00`, `9:30`, `6pm`, `6:30pm`;
  /// - an ISO 8601 date, with `Z` or an offset for an instant (`2026-12-31T23:59:59Z`,
  ///   `2026-12-31T23:59:59+01:00`), or without a zone for the local time (`2026-12-31T23:59`,
  ///   `2026-12-31` = midnight at its start).
  ///
  /// Two numbers with a colon are always a time of day (as on a wall clock), never minutes and
  /// seconds, so `5:00` means five o'clock; write `5m` or `0:05:00` for five minutes.
  init(parsing text: String) throws(TimeSpecError) {
    let input = text.trimmingCharacters(in: .whitespaces)
    let lowered = input.lowercased()
    if let spec = try Self.date(lowered, input: input) {
      self = spec
    } else if let spec = try Self.twelveHourTime(lowered, input: input) {
      self = spec
    } else if let spec = try Self.colonForm(lowered, input: input) {
      self = spec
    } else if let spec = try Self.unitDuration(lowered, input: input) {
      self = spec
    } else {
      throw TimeSpecError(input: input, problem: .unrecognized)
    }
  }

  private static func date(_ text: String, input: String) throws(TimeSpecError) -> TimeSpec? {
    let pattern =
      #/(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(z|[+-]\d{2}(?::?\d{2})?)?)?/#
    guard let match = text.wholeMatch(of: pattern) else { return nil }
    let (_, year, month, day, hour, minute, second, fraction, zone) = match.output
    var components = DateComponents(
      year: Int(year), month: Int(month), day: Int(day),
      hour: hour.flatMap { Int($0) } ?? 0, minute: minute.flatMap { Int($0) } ?? 0,
      second: second.flatMap { Int($0) } ?? 0)
    if let fraction {
      components.nanosecond = Int(fraction.padding(toLength: 9, withPad: "0", startingAt: 0))
    }
    try check(components.month!, in: 1...12, "month", input: input)
    try check(components.day!, in: 1...31, "day", input: input)
    try check(components.hour!, in: 0...23, "hour", input: input)
    try check(components.minute!, in: 0...59, "minute", input: input)
    try check(components.second!, in: 0...59, "second", input: input)
    guard let zone else { return .localDate(components) }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: try offsetSeconds(String(zone), input: input))!
    guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
      throw TimeSpecError(input: input, problem: .noSuchTime)
    }
    return .date(date)
  }

  private static func offsetSeconds(_ zone: String, input: String) throws(TimeSpecError) -> Int {
    if zone == "z" { return 0 }
    let sign = zone.hasPrefix("-") ? -1 : 1
    let digits = zone.dropFirst().filter(\.isNumber)
    let hours = Int(digits.prefix(2)) ?? 0
    let minutes = Int(digits.dropFirst(2)) ?? 0
    try check(hours, in: 0...18, "offset hours", input: input)
    try check(minutes, in: 0...59, "offset minutes", input: input)
    return sign * (hours * 3_600 + minutes * 60)
  }

  private static func twelveHourTime(_ text: String, input: String) throws(TimeSpecError) -> TimeSpec? {
    guard let match = text.wholeMatch(of: #/(\d{1,2})(?::(\d{2}))?\s*(am|pm)/#) else { return nil }
    let (_, hourText, minuteText, half) = match.output
    let hour = Int(hourText)!
    let minute = minuteText.flatMap { Int($0) } ?? 0
    try check(hour, in: 1...12, "hour", input: input)
    try check(minute, in: 0...59, "minute", input: input)
    return .timeOfDay(hour: hour % 12 + (half == "pm" ? 12 : 0), minute: minute, second: 0)
  }

  private static func colonForm(_ text: String, input: String) throws(TimeSpecError) -> TimeSpec? {
    if let match = text.wholeMatch(of: #/(\d{1,2}):(\d{2})/#) {
      let hour = Int(match.output.1)!
      let minute = Int(match.output.2)!
      guard hour < 24 else { throw TimeSpecError(input: input, problem: .notATimeOfDay) }
      try check(minute, in: 0...59, "minute", input: input)
      return .timeOfDay(hour: hour, minute: minute, second: 0)
    }
    if text.wholeMatch(of: #/\d{3,}:\d{2}/#) != nil {
      throw TimeSpecError(input: input, problem: .notATimeOfDay)
    }
    guard let match = text.wholeMatch(of: #/(\d{1,9}):(\d{2}):(\d{2})/#) else { return nil }
    let (_, hours, minutes, seconds) = match.output
    try check(Int(minutes)!, in: 0...59, "minutes", input: input)
    try check(Int(seconds)!, in: 0...59, "seconds", input: input)
    let total = Duration.seconds(Int64(hours)! * 3_600 + Int64(minutes)! * 60 + Int64(seconds)!)
    guard total <= maximumDuration else { throw TimeSpecError(input: input, problem: .tooLong) }
    return .duration(total)
  }

  private static func unitDuration(_ text: String, input: String) throws(TimeSpecError) -> TimeSpec? {
    if text.wholeMatch(of: #/\d{1,30}(?:\.\d{1,18})?/#) != nil {
      return .duration(try amount(Substring(text), unit: .seconds(1), input: input))
    }
    let component = #/\s*(\d{1,30}(?:\.\d{1,18})?)\s*(ms|min|m|sec|s|d|h)/#
    var rest = Substring(text)
    var total = Duration.zero
    var previousUnit: Duration?
    while !rest.isEmpty {
      guard let match = rest.prefixMatch(of: component) else { return nil }
      let unit = unitLength(match.output.2)
      if let previousUnit, unit >= previousUnit {
        throw TimeSpecError(input: input, problem: .outOfRange("units go from largest to smallest, each once"))
      }
      previousUnit = unit
      total += try amount(match.output.1, unit: unit, input: input)
      guard total <= maximumDuration else { throw TimeSpecError(input: input, problem: .tooLong) }
      rest = rest[match.range.upperBound...]
    }
    return previousUnit == nil ? nil : .duration(total)
  }

  private static func unitLength(_ unit: Substring) -> Duration {
    switch unit {
    case "d": .seconds(86_400)
    case "h": .seconds(3_600)
    case "m", "min": .seconds(60)
    case "ms": .milliseconds(1)
    default: .seconds(1)
    }
  }

  /// `number` (digits with an optional decimal fraction) times `unit`, exactly.
  private static func amount(_ number: Substring, unit: Duration, input: String) throws(TimeSpecError) -> Duration {
    let parts = number.split(separator: ".", maxSplits: 1)
    let fraction = parts.count > 1 ? parts[1] : ""
    var scale: Int128 = 1
    for _ in fraction { scale *= 10 }
    guard let digits = Int128(parts[0] + fraction) else {
      throw TimeSpecError(input: input, problem: .unrecognized)
    }
    let (product, overflow) = digits.multipliedReportingOverflow(by: unit.attosecondCount)
    let result = Duration(attosecondCount: product / scale)
    guard !overflow, result <= maximumDuration else { throw TimeSpecError(input: input, problem: .tooLong) }
    return result
  }

  private static func check(
    _ value: Int, in range: ClosedRange<Int>, _ name: String, input: String
  ) throws(TimeSpecError) {
    guard range.contains(value) else {
      throw TimeSpecError(
        input: input, problem: .outOfRange("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)"))
    }
  }
}
