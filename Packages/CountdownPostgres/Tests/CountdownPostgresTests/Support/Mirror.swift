import CountdownPostgres
import Foundation
import Synchronization

/// What a follower delivered, applied to a dictionary: the rows a board would hold, the events in order,
/// and every time a row arrived in a state older than one already applied (by its title's version
/// number, when the writer puts one there).
final class Mirror: Sendable {
  private struct State {
    var rows: [Int64: DeadlineRow] = [:]
    var events: [DeadlineChange] = []
    /// When each event was applied.
    var times: [ContinuousClock.Instant] = []
    var versions: [Int64: Int] = [:]
    var regressions: [String] = []
    /// The ids delivered since a reload began, until it caught up.
    var reloaded: Set<Int64>?
  }

  private let state = Mutex(State())

  func apply(_ change: DeadlineChange) {
    state.withLock { state in
      switch change {
      case .upserted(let rows):
        for row in rows {
          if let version = Self.version(row.title) {
            if let seen = state.versions[row.id], version < seen {
              state.regressions.append("row \(row.id) went back from version \(seen) to \(version)")
            }
            state.versions[row.id] = version
          }
          state.rows[row.id] = row
          state.reloaded?.insert(row.id)
        }
      case .removed(let ids):
        for id in ids { state.rows[id] = nil }
      case .reloading:
        state.reloaded = []
      case .caughtUp:
        if let reloaded = state.reloaded { state.rows = state.rows.filter { reloaded.contains($0.key) } }
        state.reloaded = nil
      case .interrupted:
        break
      }
      state.events.append(change)
      state.times.append(.now)
    }
  }

  var rows: [Int64: DeadlineRow] { state.withLock { $0.rows } }
  var events: [DeadlineChange] { state.withLock { $0.events } }
  var regressions: [String] { state.withLock { $0.regressions } }

  /// When the first interruption after `instant` was applied, if one was.
  func firstInterruption(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    state.withLock { state in
      zip(state.events, state.times).first { event, time in
        if case .interrupted = event { time > instant } else { false }
      }?.1
    }
  }

  /// How many first loads, catch-ups (reloads included) and reloads were completed, and how many
  /// interruptions were reported.
  var counts: (firstLoads: Int, catchUps: Int, reloads: Int, interruptions: Int) {
    state.withLock { state in
      var counts = (firstLoads: 0, catchUps: 0, reloads: 0, interruptions: 0)
      for event in state.events {
        switch event {
        case .caughtUp(let isFirstLoad, _): if isFirstLoad { counts.firstLoads += 1 } else { counts.catchUps += 1 }
        case .reloading: counts.reloads += 1
        case .interrupted: counts.interruptions += 1
        default: break
        }
      }
      return counts
    }
  }

  /// Whether the rows equal `table` in what a board shows: id, title, state and event.
  func matches(_ table: [DeadlineRow]) -> Bool {
    let rows = self.rows
    guard rows.count == table.count else { return false }
    return table.allSatisfy { row in
      guard let mine = rows[row.id] else { return false }
      return mine.title == row.title && mine.deadline == row.deadline && mine.eventAt == row.eventAt
        && mine.expiredAt == row.expiredAt
    }
  }

  /// The number after "v" in a title such as "v12", if any.
  static func version(_ title: String) -> Int? {
    guard title.hasPrefix("v") else { return nil }
    return Int(title.dropFirst())
  }
}
