#if canImport(Observation)
  /// Hands the engine's snapshots to a model that does not exist yet when the countdown is added.
  @MainActor final class SnapshotRelay<Snapshot: Sendable> {
    var receiver: ((Snapshot) -> Void)?

    func deliver(_ snapshot: Snapshot) { receiver?(snapshot) }
  }
#endif
