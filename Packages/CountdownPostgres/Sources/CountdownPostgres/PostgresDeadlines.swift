public import Foundation
public import Logging
public import PostgresNIO

/// Edits the rows of a ``DeadlineTable`` over one connection: what an app server, a support tool or
/// `countdown board set/pause/resume/add/remove` does. Every edit is one transaction, on one row, or on
/// many in one statement (``upsert(_:)``, and `remove(_:)` given an array of ids).
public final class PostgresDeadlines: Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The table edited.
  public let table: DeadlineTable
  /// The connection edits go through (queries on it run one after the other).
  public let connection: PostgresConnection
  let logger: Logger

  private init(location: PostgresLocation, table: DeadlineTable, connection: PostgresConnection, logger: Logger) {
    self.location = location
    self.table = table
    self.connection = connection
    self.logger = logger
  }

  /// Connects and checks that the table is there (or creates it, with `create`).
  ///
  /// - Throws: ``PostgresDeadlineError``: unreachable, refused, or `.schemaMissing` with the command that
  ///   creates the table.
  public static func connect(
    to location: PostgresLocation, table: DeadlineTable, create: Bool = false, logger: Logger = .quiet
  ) async throws(PostgresDeadlineError) -> PostgresDeadlines {
    let connection = try await location.connect(logger: logger)
    do {
      if create {
        try await table.create(on: connection, at: location, logger: logger)
      } else {
        try await table.verify(on: connection, at: location, logger: logger)
      }
    } catch {
      _ = try? await connection.close()
      throw error
    }
    return PostgresDeadlines(location: location, table: table, connection: connection, logger: logger)
  }

  /// Closes the connection (dropping the last reference closes it too, without waiting).
  public func close() async {
    _ = try? await connection.close()
  }

  deinit {
    connection.closeKeepingAlive()
  }

  // MARK: - Reading

  /// Every row, by id.
  public func rows() async throws(PostgresDeadlineError) -> [DeadlineRow] {
    try await run("reading \(table.name)") {
      var rows: [DeadlineRow] = []
      let query = PostgresQuery(unsafeSQL: "SELECT \(table.selectList) FROM \(table.table) ORDER BY id")
      for try await row in try await connection.queryUnlessClosed(query, logger: logger) {
        rows.append(try DeadlineRow(row))
      }
      return rows
    }
  }

  /// How many rows there are.
  public func count() async throws(PostgresDeadlineError) -> Int {
    try await scalar("SELECT count(*) FROM \(table.table)", PostgresBindings())
  }

  /// How many rows are running with a deadline after `date`.
  public func countRunning(endingAfter date: Date) async throws(PostgresDeadlineError) -> Int {
    var binds = PostgresBindings()
    binds.append(date)
    return try await scalar(
      "SELECT count(*) FROM \(table.table) WHERE paused_remaining IS NULL AND ends_at > $1", binds)
  }

  // MARK: - Writing

  /// Inserts a running row and returns its id.
  @discardableResult
  public func add(title: String, endsAt: Date, eventAt: Date? = nil) async throws(PostgresDeadlineError) -> Int64 {
    var binds = PostgresBindings()
    binds.append(title)
    binds.append(endsAt)
    binds.append(eventAt)
    return Int64(
      try await scalar(
        "INSERT INTO \(table.table) (title, ends_at, event_at) VALUES ($1, $2, $3) RETURNING id", binds))
  }

  /// Inserts many rows in one statement (for seeding and benchmarks); `pausedRemaining` in seconds.
  public func add(_ rows: [(title: String, endsAt: Date, pausedRemaining: Double?, eventAt: Date?)])
    async throws(PostgresDeadlineError)
  {
    guard !rows.isEmpty else { return }
    var binds = PostgresBindings()
    binds.append(rows.map(\.title))
    binds.append(rows.map(\.endsAt))
    binds.append(NullableArray(elements: rows.map(\.pausedRemaining)))
    binds.append(NullableArray(elements: rows.map(\.eventAt)))
    try await execute(
      """
      INSERT INTO \(table.table) (title, ends_at, paused_remaining, event_at)
      SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::float8[], $4::timestamptz[])
      """, binds, doing: "adding rows")
  }

  /// Moves a row's deadline to `end` (a paused row stays paused, with the time to `end` left at
  /// `now`). Returns whether the row is paused. A moved deadline expires again.
  @discardableResult
  public func setEnd(of id: Int64, to end: Date, now: Date) async throws(PostgresDeadlineError) -> Bool {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(end)
    binds.append(now)
    let paused = try await update(
      """
      UPDATE \(table.table) SET ends_at = $2, paused_remaining = CASE WHEN paused_remaining IS NULL THEN NULL
        ELSE GREATEST(EXTRACT(EPOCH FROM ($2::timestamptz - $3::timestamptz))::float8, 0) END
      WHERE id = $1 RETURNING paused_remaining IS NOT NULL
      """, binds, doing: "moving row \(id)")
    guard let paused else { throw noRow(id) }
    return paused
  }

  /// Pauses a row: stores the time left at `now`. Returns false if it was already paused.
  @discardableResult
  public func pause(_ id: Int64, now: Date) async throws(PostgresDeadlineError) -> Bool {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(now)
    if try await update(
      """
      UPDATE \(table.table) SET paused_remaining = GREATEST(EXTRACT(EPOCH FROM (ends_at - $2::timestamptz))::float8, 0)
      WHERE id = $1 AND paused_remaining IS NULL AND ends_at IS NOT NULL RETURNING true
      """, binds, doing: "pausing row \(id)") != nil
    {
      return true
    }
    switch try await existing(id) {
    case nil: throw noRow(id)
    case (isPaused: true, _)?: return false
    case (isPaused: false, _)?:
      throw PostgresDeadlineError(
        .badInput, "Row \(id) has no ends_at to pause; give it a deadline first: countdown board set \(id) 2h")
    }
  }

  /// Resumes a row: its deadline becomes `now` plus the time it had left. Returns false if it was not paused.
  @discardableResult
  public func resume(_ id: Int64, now: Date) async throws(PostgresDeadlineError) -> Bool {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(now)
    if try await update(
      """
      UPDATE \(table.table) SET ends_at = $2::timestamptz + make_interval(secs => paused_remaining),
        paused_remaining = NULL
      WHERE id = $1 AND paused_remaining IS NOT NULL RETURNING true
      """, binds, doing: "resuming row \(id)") != nil
    {
      return true
    }
    guard try await existing(id) != nil else { throw noRow(id) }
    return false
  }

  /// Deletes a row.
  public func remove(_ id: Int64) async throws(PostgresDeadlineError) {
    var binds = PostgresBindings()
    binds.append(id)
    guard
      try await update("DELETE FROM \(table.table) WHERE id = $1 RETURNING true", binds, doing: "deleting row \(id)")
        != nil
    else { throw noRow(id) }
  }

  /// Deletes every row.
  public func removeAll() async throws(PostgresDeadlineError) {
    try await execute("DELETE FROM \(table.table)", PostgresBindings(), doing: "deleting every row")
  }
}
