package import CountdownKit
package import Foundation
import GRDB
import GRDBSQLite

/// What the board counts of an order: its window and its event, without its title. Titles are read
/// only for the rows on screen (``OrderSource/orders(from:limit:)``); a million orders off screen are
/// a million of these, turned into deadlines on the engine's boards, and then let go.
package struct OrderTimes: Equatable, Sendable, Identifiable {
  package var id: Int64
  var window: Result<Deadline, InvalidDeadline>
  /// The event's start, when the row has a valid one.
  var eventAt: Date?

  package init(id: Int64, window: Result<Deadline, InvalidDeadline>, eventAt: Date?) {
    (self.id, self.window, self.eventAt) = (id, window, eventAt)
  }

  /// The row on the board of windows: counting to its end or paused; nil while invalid. (No total: the
  /// window display's ring has its own, ``Order/windowLength``, and a row without one costs 8 bytes less.)
  var windowRow: BoardRow<Int64>? {
    try? BoardRow(id: id, deadline: window.get())
  }

  /// The row on the board of events, if the order has one.
  var eventRow: BoardRow<Int64>? {
    eventAt.map { BoardRow(id: id, deadline: .until($0)) }
  }
}

extension OrderTimes {
  /// The times of an order read with its title.
  init(_ order: Order) {
    self.init(id: order.id, window: order.window, eventAt: order.eventAt)
  }

  /// The columns ``init(reading:)`` reads, in its order.
  static let columns = "id, window_end, paused_remaining, event_at"

  /// Every row `sql` (selecting ``columns``) returns, read through a statement cursor, and how many had
  /// no integer id.
  static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = []
  ) throws -> (rows: [OrderTimes], unreadable: Int) {
    let statement = try db.cachedStatement(sql: sql)
    let cursor = try Row.fetchCursor(statement, arguments: arguments)
    var rows: [OrderTimes] = []
    var unreadable = 0
    while try cursor.next() != nil {
      if let row = OrderTimes(reading: statement.sqliteStatement) { rows.append(row) } else { unreadable += 1 }
    }
    return (rows, unreadable)
  }

  /// The current row of `statement`, read in place: integers and reals straight from SQLite, text dates
  /// from SQLite's own bytes (``Order/date(utf8:)``: the stored form with no allocation); nil when the
  /// id is not an integer. The same values as ``Order/init(columns:)`` reads.
  init?(reading statement: SQLiteStatement) {
    guard sqlite3_column_type(statement, 0) == SQLITE_INTEGER else { return nil }
    let end = Self.date(statement, 1)
    let paused: Result<Double?, InvalidDeadline> =
      switch sqlite3_column_type(statement, 2) {
      case SQLITE_NULL: .success(nil)
      case SQLITE_FLOAT: .success(sqlite3_column_double(statement, 2))
      case SQLITE_INTEGER: .success(Double(sqlite3_column_int64(statement, 2)))
      default: Order.seconds(Self.value(statement, 2))
      }
    self.init(
      id: sqlite3_column_int64(statement, 0), window: Order.window(end: end, pausedRemaining: paused),
      eventAt: Order.eventAt(Self.date(statement, 3)))
  }

  /// A date column of the current row.
  private static func date(_ statement: SQLiteStatement, _ column: Int32) -> Result<Date?, InvalidDeadline> {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_NULL: return .success(nil)
    case SQLITE_INTEGER: return Order.date(.integer(sqlite3_column_int64(statement, column)))
    case SQLITE_FLOAT: return Order.date(.real(sqlite3_column_double(statement, column)))
    case SQLITE_TEXT:
      // The pointer is SQLite's, valid until the statement steps; read before anything else of it.
      guard let text = sqlite3_column_text(statement, column) else { return .success(nil) }
      let count = Int(sqlite3_column_bytes(statement, column))
      return Order.date(utf8: UnsafeRawBufferPointer(start: text, count: count))
    default: return Order.date(value(statement, column))
    }
  }

  /// A column of the current row as a ``ColumnValue`` (copied), for the uncommon types.
  private static func value(_ statement: SQLiteStatement, _ column: Int32) -> ColumnValue {
    ColumnValue(DatabaseValue(sqliteStatement: statement, index: column))
  }
}
