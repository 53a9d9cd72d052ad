import Foundation

/// One row of the board's `orders` table, read defensively: a value that is NULL, not a date, or
/// absurd makes the row *invalid* (shown as such, never written back); it never crashes the board.
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
  /// The longest paused time left accepted: 100 years, in seconds.
  static let maximumPausedSeconds = 3_155_760_000.0
  /// The length of a fitting window: what a full ring stands for.
  static let windowLength = Duration.seconds(2 * 3_600)

  /// The row's id.
  var id: Int64
  /// The title, safe for a terminal (see ``TerminalText``).
  var title: String
  /// The fitting window.
  var window: Window
  /// The start of an event tied to the order (a delivery, a call), if any and valid.
  var eventAt: Date?

  /// An order with these values; `title` is sanitized for the terminal.
  init(id: Int64, title: String, window: Window, eventAt: Date? = nil) {
    self.id = id
    self.title = TerminalText.sanitized(title)
    self.window = window
    self.eventAt = eventAt
  }

  /// Whether the row's window cannot be used.
  var isInvalid: Bool {
    if case .invalid = window { return true }
    return false
  }
}
