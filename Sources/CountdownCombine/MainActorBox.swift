/// Holds a value that is only ever read or written on the main actor.
///
/// Combine's `Subscriber` is not `Sendable`, yet a subscription must keep its subscriber while
/// `request(_:)` and `cancel()` are called from any thread and the engine delivers on the main actor.
/// Swift cannot check that hand-over (a non-isolated initializer cannot store into main-actor state),
/// so this box is the one unchecked place: its storage is private and reachable only through the
/// `@MainActor` accessor below, which makes every use after `init` main-actor isolated.
final class MainActorBox<Value>: @unchecked Sendable {
  private var storage: Value

  init(_ value: Value) {
    storage = value
  }

  /// The value; main actor only.
  @MainActor var value: Value {
    get { storage }
    set { storage = newValue }
  }
}
