/// One way of keeping countdowns on screen: the engine, or a strategy apps use today.
///
/// Rows are indices into a ``Workload``; every delivery goes to the ``Recorder``. `add`, `cancel` and
/// `register` may be called from any thread; `bind` from the main actor (where cells live).
public protocol Contender: AnyObject, Sendable {
  /// A short name for tables.
  var name: String { get }

  /// Starts showing `row`: it renders at once, then on every change. `isolation` is the caller's
  /// actor (`#isolation`), so that a contender called on the main actor adds as an app's main-actor
  /// code does.
  func add(_ row: Int, isolation: isolated (any Actor)?)

  /// Stops showing `row`.
  func cancel(_ row: Int)

  /// Registers rows that no cell shows yet (a list's model); returns the seconds the registering call
  /// itself took, when the contender makes one call for all rows (the engine's `upsert`), else nil.
  @discardableResult
  func register(_ rows: Range<Int>) -> Double?

  /// Shows `row` in cell `slot`, ending what the slot showed before (a reused cell).
  @MainActor func bind(slot: Int, to row: Int)

  /// How many times the contender itself woke up: driver wake-ups, timer fires, ticks.
  var wakeUps: Int { get }

  /// Stops everything and waits until nothing runs any more.
  func stop() async
}
