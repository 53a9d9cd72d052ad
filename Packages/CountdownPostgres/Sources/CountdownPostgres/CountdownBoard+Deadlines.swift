public import CountdownKit

extension CountdownBoard where ID == Int64 {
  /// Applies what a ``PostgresDeadlineFollower`` delivered: the rows of an `upserted` change go in with
  /// one ``CountdownBoard/upsert(_:)`` (running rows count to their date, paused rows keep their time
  /// left), invalid and deleted rows are removed. A `reloading` (a follower that was away longer than
  /// the table keeps deleted ids) empties the board, and the pages that follow fill it again.
  ///
  /// Rows count to the instant their date had when applied: if the wall clock is set, the rows the
  /// follower delivers from then on count to the new clock (call `engine.wallClockDidChange()` to move
  /// the others).
  ///
  /// - Parameter total: The full length of every row, for progress displays.
  public func apply(_ change: DeadlineChange, total: Duration? = nil) {
    switch change {
    case .upserted(let rows):
      let timeline = engine.timeline
      let now = engine.now
      var countdowns: [Int64: Countdown<C.Instant>] = [:]
      countdowns.reserveCapacity(rows.count)
      for row in rows {
        switch row.state {
        case .running(let end):
          guard let instant = try? timeline.instant(for: end) else {
            remove(row.id)
            continue
          }
          countdowns[row.id] = Countdown(end: instant, total: total)
        case .paused(let remaining):
          countdowns[row.id] = Countdown(end: now.advanced(by: remaining), total: total).paused(at: now)
        case .invalid:
          remove(row.id)
        }
      }
      upsert(countdowns)
    case .removed(let ids):
      for id in ids { remove(id) }
    case .reloading:
      replaceAll(with: [:])
    case .caughtUp, .interrupted:
      break
    }
  }
}
