import Foundation

/// A value of an SQLite column, as stored: what a row holds before anyone judges it.
enum ColumnValue: Equatable, Sendable, CustomStringConvertible {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The value as a short phrase for messages: `NULL`, `42`, `-5.0`, `"next tuesday"` (sanitized,
  /// at most 40 characters), `<3 bytes>`.
  var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): "\(value)"
    case .real(let value): "\(value)"
    case .text(let text):
      TerminalText.sanitized(text).count > 40
        ? "\"\(TerminalText.sanitized(text).prefix(39))…\"" : "\"\(TerminalText.sanitized(text))\""
    case .blob(let bytes): "<\(bytes.count) bytes>"
    }
  }
}

extension Order {
  /// The columns of `SELECT id, title, window_end, paused_remaining, event_at FROM orders`.
  struct Columns: Equatable, Sendable {
    /// `id`.
    var id: ColumnValue
    /// `title`.
    var title: ColumnValue
    /// `window_end`: a date, as text (GRDB's `yyyy-MM-dd HH:mm:ss.SSS` in UTC, or ISO 8601) or as
    /// seconds since 1970.
    var windowEnd: ColumnValue
    /// `paused_remaining`: seconds left while paused, NULL while running.
    var pausedRemaining: ColumnValue
    /// `event_at`: a date, like `windowEnd`.
    var eventAt: ColumnValue

    /// The columns of one row.
    init(
      id: ColumnValue, title: ColumnValue, windowEnd: ColumnValue, pausedRemaining: ColumnValue, eventAt: ColumnValue
    ) {
      self.id = id
      self.title = title
      self.windowEnd = windowEnd
      self.pausedRemaining = pausedRemaining
      self.eventAt = eventAt
    }
  }

  /// A problem with a value, as a phrase: "is not a date: …", "is out of range: …".
  struct Problem: Error, Equatable, CustomStringConvertible {
    /// The phrase.
    var description: String
  }

  /// Reads a row; `nil` only when `id` is not an integer (the row cannot be told apart from others).
  ///
  /// A paused time wins over the window end; a problem with either makes the window ``Window/invalid(_:)``;
  /// an unusable event date is dropped.
  init?(columns: Columns) {
    guard case .integer(let id) = columns.id else { return nil }
    let title: String =
      switch columns.title {
      case .text(let text): text
      case .integer(let value): "\(value)"
      case .real(let value): "\(value)"
      case .null, .blob: "(untitled)"
      }
    let window = Self.window(
      end: Self.date(columns.windowEnd), pausedRemaining: Self.remaining(columns.pausedRemaining))
    let eventAt = try? Self.date(columns.eventAt).get()
    self.init(id: id, title: title, window: window, eventAt: eventAt ?? nil)
  }

  /// The window of a row whose `window_end` and `paused_remaining` read as given: a paused time wins
  /// over the end; a problem with either makes the window invalid.
  static func window(end: Result<Date?, Problem>, pausedRemaining: Result<Duration?, Problem>) -> Window {
    switch (end, pausedRemaining) {
    case (_, .failure(let problem)): .invalid("paused_remaining \(problem)")
    case (_, .success(let remaining?)): .paused(remaining: remaining)
    case (.success(let date?), .success(nil)): .running(end: date)
    case (.success(nil), .success(nil)): .invalid("window_end is NULL")
    case (.failure(let problem), .success(nil)): .invalid("window_end \(problem)")
    }
  }

  /// A date column: nil for NULL, a failure for anything that is not a plausible date.
  ///
  /// Text is read in UTC unless it names a zone (GRDB stores dates as UTC text); numbers are
  /// seconds since 1970.
  static func date(_ value: ColumnValue) -> Result<Date?, Problem> {
    let date: Date
    switch value {
    case .null:
      return .success(nil)
    case .integer(let seconds):
      date = Date(timeIntervalSince1970: Double(seconds))
    case .real(let seconds):
      guard seconds.isFinite else { return .failure(Problem(description: "is out of range: \(value)")) }
      date = Date(timeIntervalSince1970: seconds)
    case .text(let text):
      guard let bytes = DecimalDigits.normalizedASCII(text),
        let fields = try? DateTimeFields.parse(bytes), let parsed = fields.date(assumingOffset: 0)
      else { return .failure(Problem(description: "is not a date: \(value)")) }
      date = parsed
    case .blob:
      return .failure(Problem(description: "is not a date: \(value)"))
    }
    guard plausibleDates.contains(date) else { return .failure(Problem(description: "is out of range: \(value)")) }
    return .success(date)
  }

  /// The paused remaining time in seconds: nil for NULL, a failure for a negative, huge or non-number.
  static func remaining(_ value: ColumnValue) -> Result<Duration?, Problem> {
    let seconds: Double
    switch value {
    case .null: return .success(nil)
    case .integer(let whole): seconds = Double(whole)
    case .real(let real): seconds = real
    case .text(let text):
      guard let number = NumberText.decimal(text) else {
        return .failure(Problem(description: "is not a number of seconds: \(value)"))
      }
      seconds = number
    case .blob: return .failure(Problem(description: "is not a number of seconds: \(value)"))
    }
    guard seconds.isFinite, (0...maximumPausedSeconds).contains(seconds) else {
      return .failure(Problem(description: "is out of range: \(value)"))
    }
    return .success(.milliseconds(Int64((seconds * 1_000).rounded())))
  }
}
