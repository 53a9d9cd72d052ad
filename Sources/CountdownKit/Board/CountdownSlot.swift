/// A place in the UI that shows one row of a ``CountdownBoard`` at a time: a table or collection cell,
/// a widget.
///
/// The slot owns no timer. ``bind(to:render:)`` renders the row at once and then on every change;
/// binding again (when the cell is reused for another row) atomically ends the previous binding, so a
/// reused cell never shows another row's time. A slot that is released unbinds itself; it holds its
/// render closure but the board holds nothing of the slot's, so there is no retain cycle with the
/// cell (capture the cell weakly in `render`, as with any stored closure).
///
/// ```swift
/// final class OrderCell: UICollectionViewCell {
///   lazy var slot = board.slot()
///   func configure(with order: Order) {
///     slot.bind(to: order.id) { [weak self] snapshot in
///       self?.timeLabel.text = snapshot.value.formatted(.countdown(.coarse))
///     }
///   }
/// }
/// ```
///
/// A row shows in one slot at a time: binding a second slot to the same row moves it there.
@MainActor
public final class CountdownSlot<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>
where C.Duration == Duration {
  /// What `render` receives.
  public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

  private let board: CountdownBoard<ID, Display, C>
  /// Readable from `deinit`, which is not on the main actor, and from delivered closures.
  private let binding = SlotBinding<ID>()

  init(board: CountdownBoard<ID, Display, C>) {
    self.board = board
  }

  /// The row the slot shows, if any.
  public var boundID: ID? {
    binding.current.withLock { $0?.id }
  }

  /// Shows row `id`: renders it at once if it is on the board (or as soon as it is added), then on
  /// every change of its snapshot. Ends the previous binding first.
  public func bind(to id: ID, render: @escaping @MainActor (Snapshot) -> Void) {
    unbind()
    let slotBinding = binding
    let deliver: @MainActor @Sendable (UInt64, Snapshot) -> Void = { token, snapshot in
      guard slotBinding.current.withLock({ $0?.token == token }) else { return }
      render(snapshot)
    }
    // The token is stored before the first render so that the first snapshot passes the check.
    let token = board.reserveToken()
    binding.current.withLock { $0 = SlotBinding<ID>.Current(id: id, token: token) }
    board.bind(id, token: token, render: deliver)
  }

  /// Stops showing the row; its countdown goes on and still reports its completion.
  public func unbind() {
    guard
      let old = binding.current.withLock({ current -> SlotBinding<ID>.Current? in
        defer { current = nil }
        return current
      })
    else { return }
    board.unbind(old.id, token: old.token)
  }

  deinit {
    // Cleared first, so that a snapshot already on its way to the main actor is not rendered.
    if let old = binding.current.withLock({ current -> SlotBinding<ID>.Current? in
      defer { current = nil }
      return current
    }) {
      board.unbind(old.id, token: old.token)
    }
  }
}

extension CountdownBoard {
  /// A new slot for a cell or widget.
  @MainActor
  public func slot() -> CountdownSlot<ID, Display, C> {
    CountdownSlot(board: self)
  }
}

/// The binding a slot currently has, shared with the closures it hands to the engine.
final class SlotBinding<ID: Sendable>: Sendable {
  struct Current: Sendable {
    let id: ID
    let token: UInt64
  }

  let current = Lock<Current?>(nil)
}
