/// The binding a slot has, shared with its board.
final class SlotState<ID: Sendable>: Sendable {
  struct Current: Sendable {
    let id: ID
    let token: UInt64
  }

  let current = Lock<Current?>(nil)

  /// Takes the current binding away.
  func take() -> Current? {
    current.withLock { current in
      defer { current = nil }
      return current
    }
  }

  /// Forgets the binding if it is still the one with `token` (another slot took its row).
  func clear(ifToken token: UInt64) {
    current.withLock { if $0?.token == token { $0 = nil } }
  }
}
