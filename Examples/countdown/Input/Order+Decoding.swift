import CountdownKit
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
  }

  /// Reads a row; `nil` only when `id` is not an integer (the row cannot be told apart from others).
  ///
  /// A paused time wins over the window end; a problem with either makes the window invalid; an
  /// unusable event date is dropped.
  init?(columns: Columns) {
    guard case .integer(let id) = columns.id else { return nil }
    let title: String =
      switch columns.title {
      case .text(let text): text
      case .integer(let value): "\(value)"
      case .real(let value): "\(value)"
      case .null, .blob: "(untitled)"
      }
    let window = Self.window(end: Self.date(columns.windowEnd), pausedRemaining: Self.seconds(columns.pausedRemaining))
    self.init(id: id, title: title, window: window, eventAt: Self.eventAt(Self.date(columns.eventAt)))
  }

  /// The window of a row whose `window_end` and `paused_remaining` read as given: a paused time wins
  /// over the end (``Deadline/init(endsAt:pausedRemaining:)`` judges both); a column that cannot be
  /// read makes the window invalid.
  static func window(
    end: Result<Date?, InvalidDeadline>, pausedRemaining: Result<Double?, InvalidDeadline>
  ) -> Result<Deadline, InvalidDeadline> {
    Result { () throws(InvalidDeadline) in
      let paused = try pausedRemaining.get()
      return try Deadline(endsAt: paused == nil ? end.get() : nil, pausedRemaining: paused)
    }
  }

  /// An event date as read: kept when it is one a deadline may count to (``Deadline/isPlausible(_:)``).
  static func eventAt(_ date: Result<Date?, InvalidDeadline>) -> Date? {
    guard case .success(let date?) = date, Deadline.isPlausible(date) else { return nil }
    return date
  }

  /// A date column: nil for NULL, a failure for anything that is not a date (whether it is a plausible
  /// one is ``Deadline``'s to judge).
  ///
  /// Text is read in UTC unless it names a zone (GRDB stores dates as UTC text); numbers are
  /// seconds since 1970.
  static func date(_ value: ColumnValue) -> Result<Date?, InvalidDeadline> {
    switch value {
    case .null: .success(nil)
    case .integer(let seconds): .success(Date(timeIntervalSince1970: Double(seconds)))
    case .real(let seconds): .success(Date(timeIntervalSince1970: seconds))
    case .text(let text):
      if let bytes = DecimalDigits.normalizedASCII(text), let fields = try? DateTimeFields.parse(bytes),
        let date = fields.date(assumingOffset: 0)
      {
        .success(date)
      } else {
        .failure(.unreadable("window_end is not a date: \(value)"))
      }
    case .blob: .failure(.unreadable("window_end is not a date: \(value)"))
    }
  }

  /// The paused time left in seconds: nil for NULL, a failure for a value that is not a number (whether
  /// it is a usable one is ``Deadline``'s to judge).
  static func seconds(_ value: ColumnValue) -> Result<Double?, InvalidDeadline> {
    switch value {
    case .null: .success(nil)
    case .integer(let whole): .success(Double(whole))
    case .real(let real): .success(real)
    case .text(let text):
      NumberText.decimal(text).map { .success($0) }
        ?? .failure(.unreadable("paused_remaining is not a number of seconds: \(value)"))
    case .blob: .failure(.unreadable("paused_remaining is not a number of seconds: \(value)"))
    }
  }
}
