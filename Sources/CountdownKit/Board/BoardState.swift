/// A board's part of the engine's state, seen by the engine through this protocol for what it asks of
/// a board: the deliveries of a finished row and of a wake-up's changed rows, and forgetting every row
/// when it shuts down.
///
/// A value kept in `EngineState.boards`, under the engine's lock like the rest of the engine's state.
@usableFromInline
protocol BoardState: Sendable {
  /// What delivering the completion of engine row `row` takes: the board's sequences (off the main
  /// actor) and its handlers (on it). `nil` if the row is not the board's.
  func finished(row: Int) -> (sequences: @Sendable () -> Void, handlers: @MainActor @Sendable () -> Void)?

  /// Hands the rows whose value changed (for a board that keeps every row's value) to the board;
  /// returns what the main actor must run for its handlers, and what wakes its sequences, if anything.
  /// Both run after the engine lets go of its lock.
  func liveChanges(_ entries: [LiveColumns.Entry]) -> (
    main: (@MainActor @Sendable () -> Void)?, sequences: (@Sendable () -> Void)?
  )?

  /// Forgets every row (the engine dropped them all, shutting down).
  mutating func removeAllRows()
}
