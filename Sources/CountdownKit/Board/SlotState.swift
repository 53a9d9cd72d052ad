/// The binding a slot has: readable from the slot's `deinit`, which is not on the main actor.
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
}
