// What happens to a board's rows when the board goes: running rows go on to their finish (a countdown
// the app added stops only because the app stopped it), and the board's part of the engine is
// forgotten once they all have.

extension CountdownBoard {
  /// Lets go of board `number` (its last reference went away): drops the rows that cannot finish any
  /// more (paused, with nothing left to resume them) and those that have finished, lets the others run
  /// to their finish, and forgets the board once none is left. The board's live values (for
  /// ``BoardValues/everyRow``) end here.
  static func letGo(of number: Int, displayClass: UInt32, on engine: CountdownEngine<C>) {
    let forget = forgetter(of: number, displayClass: displayClass, on: engine)
    let ended = engine.mutate { state, now -> Ended? in
      guard var rows = state.boards[number] as? Rows else { return nil }
      var ended = Ended(live: rows.live?.batches)
      rows.live = nil
      // Paused rows go; the others are released at once if they have finished and reported it,
      // otherwise once they have.
      let boardRows = rows.rows
      state.core.letGo(boardRows, owner: UInt16(number + 1), at: now, into: &state.effects)
      for row in boardRows where !state.core.rows[row].flags.isLive { _ = rows.remove(rows.ids[row]) }
      guard rows.count == 0 else {
        rows.forget = forget
        state.boards[number] = rows
        return ended
      }
      state.boards[number] = nil
      if state.core.classes.release(displayClass) { state.effects.append(.classReleased(displayClass)) }
      ended.events = rows.events
      return ended
    }
    // Outside the engine's lock: no sequence ends under it.
    ended?.end()
  }

  /// What forgets row `id` of let-go board `number` once its completion was reported (the engine has
  /// released its row), and the board once its last row is gone.
  private static func forgetter(
    of number: Int, displayClass: UInt32, on engine: CountdownEngine<C>
  ) -> @Sendable (ID) -> Void {
    { [weak engine] id in
      guard let engine else { return }
      let ended = engine.mutate { state, _ -> Ended? in
        guard var rows = state.boards[number] as? Rows, rows.forget != nil else { return nil }
        _ = rows.remove(id)
        guard rows.count == 0 else {
          state.boards[number] = rows
          return nil
        }
        state.boards[number] = nil
        if state.core.classes.release(displayClass) { state.effects.append(.classReleased(displayClass)) }
        return Ended(events: rows.events)
      }
      ended?.end()
    }
  }

  /// Sequences of a board that ended, to finish outside the engine's lock.
  private struct Ended {
    var live: LiveBatches<ID>?
    var events: FinishEvents<ID>?

    func end() {
      live?.end()
      events?.end()
    }
  }
}
