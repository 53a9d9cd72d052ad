import CountdownKit

/// How a ``PostgresDeadlineFollower`` reads the rows it delivers: which columns it selects, and what it
/// reads them into. A consumer that needs only the deadlines (a board) reads three columns straight
/// into board rows; one that shows titles or expiry reads whole ``DeadlineRow``s.
protocol FollowedRows: Sendable {
  /// What one `upserted` change carries.
  associatedtype Page: Sendable

  /// The columns selected, `id` first, in the order ``read(_:into:)`` reads them.
  static var columns: [String] { get }
  /// NULLs of the types of ``columns`` after `id`: the cells of a catch-up's rows that are not rows.
  static var nulls: String { get }

  /// An empty page with room for `capacity` rows.
  func page(capacity: Int) -> Page
  /// How many rows `page` holds.
  func count(of page: Page) -> Int
  /// Reads one row's ``columns`` from `cells` into `page`.
  ///
  /// - Returns: The row's id.
  func read(_ cells: inout CellReader, into page: inout Page) throws -> Int64
  /// The rows of a notification as a page.
  func page(of rows: [DeadlineRow]) -> Page
}

extension FollowedRows {
  /// ``columns`` as a select list.
  static var selectList: String { columns.joined(separator: ", ") }
}

/// What a follower delivers, with its rows read by a ``FollowedRows``: ``DeadlineChange`` for whole rows.
enum FollowerEvent<Page: Sendable>: Sendable {
  case upserted(Page)
  case removed([Int64])
  case reloading
  case caughtUp(isFirstLoad: Bool, rows: Int)
  case interrupted(PostgresDeadlineError)
}

/// Every column of ``DeadlineTable/selectList`` into ``DeadlineRow``s.
struct WholeRows: FollowedRows {
  static var columns: [String] { DeadlineTable.columns }
  static var nulls: String {
    "'', NULL::timestamptz, NULL::float8, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz, "
      + "NULL::timestamptz, 0, NULL::timestamptz"
  }

  func page(capacity: Int) -> [DeadlineRow] {
    var page: [DeadlineRow] = []
    page.reserveCapacity(capacity)
    return page
  }

  func count(of page: [DeadlineRow]) -> Int { page.count }

  func read(_ cells: inout CellReader, into page: inout [DeadlineRow]) throws -> Int64 {
    let row = DeadlineRow(columns: try cells.deadlineColumns())
    page.append(row)
    return row.id
  }

  func page(of rows: [DeadlineRow]) -> [DeadlineRow] { rows }
}

/// The columns of a deadline and its event (`id`, `ends_at`, `paused_remaining`, `event_at`) into
/// ``DeadlineRow``s whose other fields keep their defaults.
struct DeadlineColumns: FollowedRows {
  static var columns: [String] { ["id", "ends_at", "paused_remaining", "event_at"] }
  static var nulls: String { "NULL::timestamptz, NULL::float8, NULL::timestamptz" }

  func page(capacity: Int) -> [DeadlineRow] { WholeRows().page(capacity: capacity) }

  func count(of page: [DeadlineRow]) -> Int { page.count }

  func read(_ cells: inout CellReader, into page: inout [DeadlineRow]) throws -> Int64 {
    let id = try cells.int64()
    let (endsAt, pausedRemaining, eventAt) = (try cells.date(), try cells.double(), try cells.date())
    // Through `init(columns:)`, which judges `event_at` for every reading.
    page.append(DeadlineRow(columns: (id, "", endsAt, pausedRemaining, eventAt, nil, nil, nil, 0, nil)))
    return id
  }

  func page(of rows: [DeadlineRow]) -> [DeadlineRow] { rows }
}

extension DeadlineChange {
  /// The change a follower that reads whole rows (or ``DeadlineColumns``) delivers.
  init(_ event: FollowerEvent<[DeadlineRow]>) {
    switch event {
    case .upserted(let rows): self = .upserted(rows)
    case .removed(let ids): self = .removed(ids)
    case .reloading: self = .reloading
    case .caughtUp(let isFirstLoad, let rows): self = .caughtUp(isFirstLoad: isFirstLoad, rows: rows)
    case .interrupted(let error): self = .interrupted(error)
    }
  }
}

/// The rows of a page for a board: the valid ones as board rows, the ids of the invalid ones (which the
/// board removes).
struct BoardPage: Sendable, Hashable {
  var rows: [BoardRow<Int64>] = []
  var invalid: [Int64] = []

  /// The page as a batch for a board.
  var change: BoardChange<Int64> { .changed(upserted: rows, removed: invalid) }
}

/// The three columns a board needs (`id`, `ends_at`, `paused_remaining`), read straight into board rows
/// and judged by `Deadline(endsAt:pausedRemaining:)`, as ``DeadlineRow/deadline`` is: no title, no expiry columns, no page of whole rows.
struct BoardRows: FollowedRows {
  /// The full length of every row, for progress displays.
  let total: Duration?

  static var columns: [String] { ["id", "ends_at", "paused_remaining"] }
  static var nulls: String { "NULL::timestamptz, NULL::float8" }

  func page(capacity: Int) -> BoardPage {
    var page = BoardPage()
    page.rows.reserveCapacity(capacity)
    return page
  }

  func count(of page: BoardPage) -> Int { page.rows.count + page.invalid.count }

  func read(_ cells: inout CellReader, into page: inout BoardPage) throws -> Int64 {
    let id = try cells.int64()
    let (endsAt, pausedRemaining) = (try cells.date(), try cells.double())
    if let deadline = try? Deadline(endsAt: endsAt, pausedRemaining: pausedRemaining) {
      page.rows.append(BoardRow(id: id, deadline: deadline, total: total))
    } else {
      page.invalid.append(id)
    }
    return id
  }

  func page(of rows: [DeadlineRow]) -> BoardPage {
    var page = self.page(capacity: rows.count)
    for row in rows { append(row, to: &page) }
    return page
  }

  private func append(_ row: DeadlineRow, to page: inout BoardPage) {
    if let boardRow = row.boardRow(total: total) { page.rows.append(boardRow) } else { page.invalid.append(row.id) }
  }
}
