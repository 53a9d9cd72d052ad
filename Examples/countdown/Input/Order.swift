package import CountdownKit
package import Foundation

/// One row of the board's `orders` table, read defensively: a value that is NULL, not a date, or
/// absurd makes the row's window *invalid* (shown as such, never written back); it never crashes the
/// board.
package struct Order: Equatable, Sendable {
  /// The length of a fitting window: what a full ring stands for.
  static let windowLength = Duration.seconds(2 * 3_600)

  /// The row's id.
  var id: Int64
  /// The title, safe for a terminal (see ``TerminalText``).
  var title: String
  /// The fitting window: counting to a date or paused, or why the row's values cannot be counted to.
  var window: Result<Deadline, InvalidDeadline>
  /// The start of an event tied to the order (a delivery, a call), if any and valid.
  var eventAt: Date?

  /// An order with these values; `title` is sanitized for the terminal.
  package init(id: Int64, title: String, window: Result<Deadline, InvalidDeadline>, eventAt: Date? = nil) {
    self.id = id
    self.title = TerminalText.sanitized(title)
    self.window = window
    self.eventAt = eventAt
  }
}
