// libFuzzer target: the command's `<time>` parser, numbers and terminal text (Examples/countdown/Input).
// Any input must parse or throw a `TimeSpecError` whose message is safe for a terminal; what parses
// must be in range and resolve without trapping. Built and run by Fuzz/run.
import Foundation

/// libFuzzer's entry point: checks one input; a broken invariant stops the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeSpec(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: data, count: size)
  let text = String(decoding: bytes, as: UTF8.self)
  checkTimeSpec(text)
  checkNumbers(text)
  let clean = TerminalText.sanitized(text)
  require(TerminalText.sanitized(clean) == clean, "sanitizing twice changes the text")
  require(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "control left")
  return 0
}

private let now = Date(timeIntervalSince1970: 1_798_000_000)
private let calendars: [Calendar] = ["UTC", "Europe/Berlin", "America/St_Johns", "Pacific/Kiritimati"].map {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: $0) ?? .gmt
  return calendar
}

private func checkTimeSpec(_ text: String) {
  let spec: TimeSpec
  do {
    spec = try TimeSpec(parsing: text, dateOrder: text.utf8.count % 2 == 0 ? nil : .dayFirst)
  } catch {
    checkMessage(error, for: text)
    return
  }
  switch spec.form {
  case .duration(let duration):
    require(duration >= .zero && duration <= TimeSpec.maximumDuration, "duration out of range: \(duration)")
  case .wallClock(let wallClock):
    if let time = wallClock.time {
      require(
        (0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...59).contains(time.second)
          && (0..<1_000_000_000).contains(time.nanosecond), "bad time of day \(time)")
    }
    if case .date(let year, let month, let day) = wallClock.day {
      require(year.map { (1...9_999).contains($0) } ?? true && (1...12).contains(month), "bad date \(wallClock.day)")
      require((1...31).contains(day), "bad day \(day)")
    }
    if case .offset(let seconds) = wallClock.zone { require(abs(seconds) <= 18 * 3_600, "offset \(seconds)") }
  }
  for calendar in calendars {
    do {
      guard case .deadline(let date) = try spec.resolved(now: now, calendar: calendar) else { continue }
      require(date.timeIntervalSince1970.isFinite, "non-finite deadline")
      require(date.timeIntervalSince(now) <= Double(TimeSpec.maximumDuration.components.seconds), "beyond the limit")
      if case .wallClock(let wallClock) = spec.form, wallClock.day == .next {
        require(date > now && date <= now + 2 * 86_400, "a clock time not within a day: \(date)")
      }
    } catch {
      checkMessage(error, for: text)
    }
  }
}

/// A rejection's message: long enough to say something, safe for a terminal, and quoting the input.
private func checkMessage(_ error: TimeSpecError, for text: String) {
  let message = error.description
  require(TerminalText.isSafe(message), "unsafe message for \(text.debugDescription): \(message.debugDescription)")
  require(message.count > 10, "no message")
  require(message.hasPrefix("'" + TerminalText.escaped(error.input) + "'"), "input not quoted: \(message)")
}

private func checkNumbers(_ text: String) {
  if let integer = NumberText.integer(text) {
    let ascii = DecimalDigits.asciiDigits(DecimalDigits.trimmingSpaces(text))
    require(Int64(ascii) == integer, "integer \(integer) is not what \(ascii.debugDescription) says")
  }
  if let decimal = NumberText.decimal(text) {
    require(decimal.isFinite || decimal == .infinity, "NaN from \(text.debugDescription)")
    require(decimal >= 0, "negative decimal")
  }
  let ascii = DecimalDigits.asciiDigits(text)
  require(ascii.unicodeScalars.count == text.unicodeScalars.count, "digit mapping changed the length")
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError("Invariant broken: \(message())") }
}
