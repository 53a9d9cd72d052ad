/// What a key does on the live board.
enum BoardAction: Equatable, Sendable {
  /// Select the row at this index of the whole list.
  case select(Int)
  /// Pause or resume the selected order.
  case togglePause
  case quit
}

/// The live board's keys, as a pure function: ↑/↓, PgUp/PgDn, Home/End move the selection, p or
/// space pauses or resumes the selected order, q or Esc quits.
enum BoardKeys {
  /// What `key` does with `selected` of `count` rows and pages of `page` rows; nil for other keys.
  static func action(for key: Key, selected: Int, count: Int, page: Int) -> BoardAction? {
    let last = max(count - 1, 0)
    let step = max(1, page - 1)
    func select(_ index: Int) -> BoardAction { .select(min(max(index, 0), last)) }
    switch key {
    case .up: return select(selected - 1)
    case .down: return select(selected + 1)
    case .pageUp: return select(selected - step)
    case .pageDown: return select(selected + step)
    case .home: return select(0)
    case .end: return select(last)
    case .character("p"), .character(" "): return count > 0 ? .togglePause : nil
    case .character("q"), .character("Q"), .escape: return .quit
    default: return nil
    }
  }
}
