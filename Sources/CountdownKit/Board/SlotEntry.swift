/// One slot's binding to a row, on the main actor: renders the row when what the slot shows changes.
///
/// A row's engine binding calls every slot showing the row; each slot is rendered when its value, its
/// paused or finished flag, or (for a slot that draws a ring) its ring's step changed since its last
/// render, so that a slot joining the row, or another slot's ring, costs it nothing.
@MainActor
@usableFromInline
final class SlotEntry<Value: Equatable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  typealias Snapshot = CountdownSnapshot<Value, Instant>

  /// What the slot last rendered.
  private struct Shown: Equatable {
    var value: Value
    var step: Int?
    var isPaused: Bool
    var isFinished: Bool
  }

  private let render: @MainActor (Snapshot) -> Void
  private var shown: Shown?

  init(render: @escaping @MainActor (Snapshot) -> Void) {
    self.render = render
  }

  /// Renders `snapshot` if it looks different to this slot; `step`: the steps left of the slot's ring,
  /// for a slot that draws one over a row that has a total.
  func deliver(_ snapshot: Snapshot, step: Int?) {
    let new = Shown(value: snapshot.value, step: step, isPaused: snapshot.isPaused, isFinished: snapshot.isFinished)
    guard new != shown else { return }
    shown = new
    render(snapshot)
  }
}
