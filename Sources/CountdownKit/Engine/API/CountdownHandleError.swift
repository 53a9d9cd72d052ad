/// Why a ``CountdownHandle`` could not do what it was asked.
public enum CountdownHandleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The countdown was added with only a completion callback (``CountdownEngine/add(_:onFinish:)``):
  /// it shows nothing, so there is no display to change.
  case showsNothing
  /// The new display's values are not of the type the countdown's subscriber receives: its closure
  /// takes snapshots of `receives`, the display shows `shows`.
  case valueTypeMismatch(receives: String, shows: String)

  /// What went wrong, and what to do.
  public var description: String {
    switch self {
    case .showsNothing:
      "The countdown shows nothing (it was added with only a completion callback), so its display cannot "
        + "change; add it with a display and an onChange closure instead."
    case .valueTypeMismatch(let receives, let shows):
      "The countdown's subscriber receives snapshots of \(receives), but the new display shows \(shows); "
        + "use a display of \(receives) values, or cancel the countdown and add it again with a new closure."
    }
  }
}
