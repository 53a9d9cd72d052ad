/// A table of deadlines in PostgreSQL, with what boards and expiry workers need around it.
///
/// ``create(on:at:logger:)`` makes it (``statements``), ``verify(on:at:logger:)`` checks that it is there.
/// The table `name` has one row per deadline:
///
/// | column | meaning |
/// |---|---|
/// | `id` | bigint key (generated when not given) |
/// | `title` | what the deadline is for, shown by boards |
/// | `ends_at` | the deadline, while running |
/// | `paused_remaining` | seconds left while paused (NULL while running) |
/// | `event_at` | an optional second date the deadline leads to (the command's board shows it) |
/// | `expired_at` | set once, by the worker that expired the row |
/// | `lease_until` | until when that worker's follow-up has the row; after it, another worker retries |
/// | `followed_up_at` | when the follow-up finished |
/// | `expiry_attempts` | how many times a worker claimed the row (1, plus one per retry) |
/// | `changed_xid` | the transaction that last wrote the row (set by a trigger) |
///
/// Around it: `<name>_removed` (the ids of deleted rows, the transaction that deleted them and when; kept
/// for ``logRetention``, see ``pruneRemoved(on:at:olderThan:logger:)``), `<name>_pruned` (how far that log
/// was pruned), `<name>_attempts` (every claim: row, attempt, worker, when, its lease, when its follow-up
/// finished), row triggers that stamp `changed_xid` (and make a moved deadline expire again), and
/// statement triggers that send what each statement changed on the channel ``channel`` with `NOTIFY`:
/// the rows themselves when they fit in notifications, else the transaction's id.
public struct DeadlineTable: Sendable, Hashable {
  /// The table's name: lowercase ASCII letters, digits and underscores, starting with a letter.
  public let name: String
  /// How long the ids of deleted rows are kept for followers that were away: one that comes back later
  /// than that reloads the table instead of catching up. Followers prune older ones as they go.
  public let logRetention: Duration

  /// The table called `name`.
  ///
  /// - Parameter logRetention: How long deleted ids are kept for followers that were away (an hour by
  ///   default; at least a second).
  /// - Throws: ``PostgresDeadlineError`` (`.badInput`) for a name that is not a plain lowercase identifier
  ///   of at most 40 characters: names are spliced into SQL, so nothing else is accepted.
  public init(name: String = "deadlines", logRetention: Duration = .seconds(3_600)) throws(PostgresDeadlineError) {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, (97...122).contains(first), bytes.count <= 40,
      bytes.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 })
    else {
      throw PostgresDeadlineError(
        .badInput,
        "A table name must be 1 to 40 of a-z, 0-9 and _, starting with a letter (got \(name.debugDescription)).")
    }
    self.name = name
    self.logRetention = max(logRetention, .seconds(1))
  }

  /// The `NOTIFY` channel on which each writing transaction sends its id.
  public var channel: String { "\(name)_changes" }

  /// The columns the package reads and writes, in the order ``DeadlineRow`` decodes them.
  static let columns = [
    "id", "title", "ends_at", "paused_remaining", "event_at", "expired_at", "lease_until", "followed_up_at",
    "expiry_attempts",
  ]

  /// The row columns as a select list.
  var selectList: String { Self.columns.joined(separator: ", ") }

  /// `name` quoted, and the quoted names of its companions.
  var table: String { "\"\(name)\"" }
  var removed: String { "\"\(name)_removed\"" }
  var attempts: String { "\"\(name)_attempts\"" }
  var pruned: String { "\"\(name)_pruned\"" }

  /// What to run when the table is missing, for messages.
  static func initAdvice(_ location: PostgresLocation) -> String {
    "Create the deadline tables with: countdown board init --db \(location)"
  }
}
