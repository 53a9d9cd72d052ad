import CountdownKit

extension CountdownBoard {
  /// Puts what `countdown` has left at `now` in row `id`, through the board's one way in: a batch of one
  /// upserted row (`BoardRow(id:countdown:at:)`).
  func put(_ id: ID, _ countdown: Countdown<C.Instant>, at now: C.Instant) {
    apply(.upserted([BoardRow(id: id, countdown: countdown, at: now)]), asOf: now)
  }

  /// Puts each of `countdowns` (what it has left at `now`) in its row, in one batch.
  func put(_ countdowns: [ID: Countdown<C.Instant>], at now: C.Instant) {
    apply(.upserted(Self.rows(countdowns, at: now)), asOf: now)
  }

  /// Rows counting what each of `countdowns` has left at `now`.
  static func rows(_ countdowns: [ID: Countdown<C.Instant>], at now: C.Instant) -> [BoardRow<ID>] {
    countdowns.map { BoardRow(id: $0.key, countdown: $0.value, at: now) }
  }
}
