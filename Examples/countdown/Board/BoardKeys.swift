/// What a key does on the live board.
enum BoardAction: Equatable, Sendable {
  /// Move the selection by this many rows (down when positive).
  case move(Int)
  /// Select the first order.
  case first
  /// Select the last order.
  case last
  /// Pause or resume the selected order.
  case togglePause
  case quit
}

/// The live board's keys, as a pure function: ↑/↓, PgUp/PgDn, Home/End move the selection, p or
/// space pauses or resumes the selected order, q or Esc quits. Moves are relative: the board reads
/// the rows it moves to (it holds only the rows on screen).
enum BoardKeys {
  /// What `key` does on a screen of `page` rows; nil for other keys.
  static func action(for key: Key, page: Int) -> BoardAction? {
    let step = max(1, page - 1)
    switch key {
    case .up: return .move(-1)
    case .down: return .move(1)
    case .pageUp: return .move(-step)
    case .pageDown: return .move(step)
    case .home: return .first
    case .end: return .last
    case .character("p"), .character(" "): return .togglePause
    case .character("q"), .character("Q"), .escape: return .quit
    default: return nil
    }
  }
}
