/// A board's part of the engine's state, seen by the engine through this protocol for the two things
/// it asks of a board: the deliveries of a finished row, and forgetting every row when it shuts down.
///
/// A value kept in `EngineState.boards`, under the engine's lock like the rest of the engine's state.
@usableFromInline
protocol BoardState: Sendable {
  /// What delivering the completion of engine row `row` takes: the board's sequences (off the main
  /// actor) and its handlers (on it). `nil` if the row is not the board's.
  func finished(row: Int) -> (sequences: @Sendable () -> Void, handlers: @MainActor @Sendable () -> Void)?

  /// Forgets every row (the engine dropped them all, shutting down).
  mutating func removeAllRows()
}
