import CountdownKit
import Foundation

/// What the status line counts that the engine's boards do not hold: invalid rows (on no board),
/// finished windows, the first load's progress. Kept as rows change, at a cost per changed row; the
/// counts that need every row are unknown (`nil`) until the first load has read every row.
struct BoardTally: Sendable {
  /// Orders whose window cannot be used (shown as invalid, on no board).
  private(set) var invalid: Set<Int64> = []
  /// Orders whose window has no time left.
  private(set) var finished: Set<Int64> = []
  /// How many rows the first load reads, once known.
  var total: Int?
  /// How many rows the first load has read.
  private(set) var loaded = 0
  /// Whether the first load ended.
  private(set) var isLoaded = false
  /// Rows without an integer id.
  var unreadable = 0
  /// The last order that finished while the board ran, and when.
  private(set) var lastFinished: (id: Int64, at: Date)?

  /// Records the window of row `id` as read at `now`: a window already over counts as finished but did
  /// not "just" finish. `isNew`: the tally has not seen the row (nothing of it to forget).
  mutating func record(_ window: Deadline, of id: Int64, at now: Date, isNew: Bool = false) {
    if !isNew { invalid.remove(id) }
    let isOver =
      switch window {
      case .until(let end): end <= now
      case .after(let remaining), .paused(let remaining): remaining <= .zero
      }
    if isOver {
      finished.insert(id)
    } else if !isNew {
      finished.remove(id)
    }
  }

  /// Records that row `id`'s window cannot be used.
  mutating func recordInvalid(_ id: Int64) {
    invalid.insert(id)
    finished.remove(id)
  }

  /// Forgets a deleted row.
  mutating func forget(_ id: Int64) {
    invalid.remove(id)
    finished.remove(id)
    if lastFinished?.id == id { lastFinished = nil }
  }

  /// Forgets every row, before a reload.
  mutating func forgetAll() {
    invalid.removeAll()
    finished.removeAll()
    lastFinished = nil
  }

  /// Counts a page of the first load, once it has started (``total`` is known): the first screen's rows,
  /// put before it, are read again by it.
  mutating func countLoaded(_ rows: Int) {
    if total != nil { loaded += rows }
  }

  /// The first load ended.
  mutating func endLoad() {
    isLoaded = true
  }

  /// Row `id` finished while the board ran; false if it already counted as finished.
  mutating func rowFinished(_ id: Int64, at date: Date) -> Bool {
    guard finished.insert(id).inserted else { return false }
    lastFinished = (id, date)
    return true
  }

  /// How many orders are finished, once every row has been read.
  var finishedCount: Int? { isLoaded ? finished.count : nil }

  /// How many orders are invalid, once every row has been read.
  var invalidCount: Int? { isLoaded ? invalid.count : nil }
}
