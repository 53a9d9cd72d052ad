import Foundation
import GRDB

/// One row of the `orders` table, read defensively: a value that is NULL, not a date, or absurd
/// makes the row *invalid* (shown as such, never written back), it never crashes the board.
struct Order: Equatable, Sendable {
  /// The state of the order's fitting window.
  enum Window: Equatable, Sendable {
    /// Counting down to a wall-clock deadline.
    case running(end: Date)
    /// Paused with this much time left.
    case paused(remaining: Duration)
    /// The row's dates cannot be used; the message says why.
    case invalid(String)
  }

  /// Dates outside this range, 1970 to 2200, are taken for garbage (a unit mix-up, a corrupt value).
  static let plausibleDates = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 7_258_118_400)
  /// The length of a fitting window: what a full ring stands for.
  static let windowLength = Duration.seconds(2 * 3_600)

  var id: Int64
  var title: String
  var window: Window
  /// The start of an event tied to the order (a delivery, a call), if any and valid.
  var eventAt: Date?

  init(id: Int64, title: String, window: Window, eventAt: Date? = nil) {
    self.id = id
    self.title = title
    self.window = window
    self.eventAt = eventAt
  }

  /// Reads a row of `SELECT id, title, window_end, paused_remaining, event_at FROM orders`.
  /// A missing column reads as NULL.
  init(row: Row) {
    func column(_ name: String) -> DatabaseValue { row.hasColumn(name) ? row[name] : .null }
    id = Int64.fromDatabaseValue(column("id")) ?? 0
    title = String.fromDatabaseValue(column("title")) ?? "(untitled)"
    let end = Self.date(column("window_end"))
    let paused = Self.remaining(column("paused_remaining"))
    switch (end, paused) {
    case (_, .failure(let problem)):
      window = .invalid("paused_remaining \(problem)")
    case (_, .success(let remaining?)):
      window = .paused(remaining: remaining)
    case (.success(let date?), .success(nil)):
      window = .running(end: date)
    case (.success(nil), .success(nil)):
      window = .invalid("window_end is NULL")
    case (.failure(let problem), .success(nil)):
      window = .invalid("window_end \(problem)")
    }
    eventAt = try? Self.date(column("event_at")).get()
  }

  /// A problem with a value, as a phrase: "is not a date", "is out of range".
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  /// A date column: nil for NULL, a failure for anything that is not a plausible date.
  static func date(_ value: DatabaseValue) -> Result<Date?, Problem> {
    if value.isNull { return .success(nil) }
    var date = Date.fromDatabaseValue(value)
    if date == nil, let text = String.fromDatabaseValue(value), case .date(let parsed)? = try? TimeSpec(parsing: text) {
      date = parsed
    }
    guard let date else { return .failure(Problem(description: "is not a date: \(value)")) }
    guard date.timeIntervalSince1970.isFinite, plausibleDates.contains(date) else {
      return .failure(Problem(description: "is out of range: \(value)"))
    }
    return .success(date)
  }

  /// The paused remaining time in seconds: nil for NULL, a failure for a negative, huge or non-number.
  static func remaining(_ value: DatabaseValue) -> Result<Duration?, Problem> {
    if value.isNull { return .success(nil) }
    guard let seconds = Double.fromDatabaseValue(value) else {
      return .failure(Problem(description: "is not a number of seconds: \(value)"))
    }
    guard seconds.isFinite, (0...3_155_760_000).contains(seconds) else {
      return .failure(Problem(description: "is out of range: \(value)"))
    }
    return .success(.milliseconds(Int64((seconds * 1_000).rounded())))
  }
}
