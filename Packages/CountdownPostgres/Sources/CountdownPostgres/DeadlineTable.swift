/// A table of deadlines in PostgreSQL, with what boards and expiry workers need around it.
///
/// ``create(on:at:logger:)`` makes it or migrates it to this version (``schemaVersion``),
/// ``verify(on:at:logger:)`` checks that it is there, of this version, with its triggers as this version
/// writes them. The table `schema.name` has one row per deadline:
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
/// | `discarded_at` | when the last allowed attempt failed: nobody retries it until an operator does |
/// | `attempt_base` | `expiry_attempts` when an operator last retried the row (retries count from it) |
/// | `changed_xid` | the transaction that last wrote the row (set by a trigger) |
///
/// Around it, in the same schema: `<name>_removed` (the ids of deleted rows, the transaction that
/// deleted them and when; kept for ``logRetention``, see ``pruneRemoved(on:at:olderThan:logger:)``),
/// `<name>_pruned` (how far that log was pruned), `<name>_attempts` (every claim: row, attempt, worker,
/// when, its lease, when its follow-up finished or failed and why), `<name>_meta` (the schema's version
/// and the table's channel), row triggers that stamp `changed_xid` (and make a moved deadline expire
/// again), and statement triggers that send what each statement changed with `NOTIFY`: the rows
/// themselves when they fit in notifications, else the transaction's id.
///
/// ### Who can send what boards and workers believe
///
/// Any role that can connect may `LISTEN` on, or send `NOTIFY` to, any channel it can name. So the
/// channel is not derived from the table's name: it is random, made when the table is created, and kept
/// in `<name>_meta`, which only roles granted to read the table can read (``Role``). A role that can only
/// connect can neither hear the table's changes nor send anything a board or worker acts on. What
/// arrives on the channel is still checked before it counts: deletions against the table, a watermark
/// only when it is the follower's own, a notification of a transaction older than the watermark not at
/// all; and workers find due rows by a query of their own (``DeadlineExpiryWorker/sweepInterval``).
///
/// The trigger functions run with `search_path` pinned to `pg_catalog, pg_temp` and name every table
/// with its schema; the one that logs deleted ids runs as the table's owner (`SECURITY DEFINER`), so
/// writers need no privilege on the companion tables.
public struct DeadlineTable: Sendable, Hashable {
  /// The table's name: lowercase ASCII letters, digits and underscores, starting with a letter.
  public let name: String
  /// The schema the table and its companions live in (the same rules as the name; `public` by default).
  public let schema: String
  /// How long the ids of deleted rows are kept for followers that were away: one that comes back later
  /// than that reloads the table instead of catching up. Followers prune older ones as they go.
  public let logRetention: Duration

  /// The version of the table, its companions and triggers that this package writes and expects.
  public static let schemaVersion = 2

  /// The table called `name` in `schema`.
  ///
  /// - Parameter logRetention: How long deleted ids are kept for followers that were away (an hour by
  ///   default; at least a second).
  /// - Throws: ``PostgresDeadlineError`` (`.badInput`) for a name or schema that is not a plain lowercase
  ///   identifier of at most 40 characters: names are spliced into SQL, so nothing else is accepted.
  public init(name: String = "deadlines", schema: String = "public", logRetention: Duration = .seconds(3_600))
    throws(PostgresDeadlineError)
  {
    for (what, value) in [("table name", name), ("schema", schema)] {
      let bytes = Array(value.utf8)
      guard let first = bytes.first, (97...122).contains(first), bytes.count <= 40,
        bytes.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 })
      else {
        throw PostgresDeadlineError(
          .badInput,
          "A \(what) must be 1 to 40 of a-z, 0-9 and _, starting with a letter (got \(value.debugDescription)).")
      }
    }
    self.name = name
    self.schema = schema
    self.logRetention = max(logRetention, .seconds(1))
  }

  /// The columns the package reads and writes, in the order ``DeadlineRow`` decodes them.
  static let columns = [
    "id", "title", "ends_at", "paused_remaining", "event_at", "expired_at", "lease_until", "followed_up_at",
    "expiry_attempts", "discarded_at",
  ]

  /// The row columns as a select list.
  var selectList: String { Self.columns.joined(separator: ", ") }

  /// `schema.name` quoted, and the quoted, qualified names of its companions.
  var table: String { qualified(name) }
  var removed: String { qualified("\(name)_removed") }
  var attempts: String { qualified("\(name)_attempts") }
  var pruned: String { qualified("\(name)_pruned") }
  var meta: String { qualified("\(name)_meta") }

  /// `schema.object`, quoted.
  func qualified(_ object: String) -> String { "\"\(schema)\".\"\(object)\"" }

  /// `schema.name` as written in messages.
  public var qualifiedName: String { "\(schema).\(name)" }

  /// What to run when the table is missing, for messages.
  static func initAdvice(_ location: PostgresLocation) -> String {
    "Create or migrate the deadline tables with: countdown board init --db \(location)"
  }
}
