import Synchronization

/// A place in the UI that shows one row of a ``CountdownBoard`` at a time: a table or collection cell,
/// a detail screen, a widget.
///
/// The slot owns no timer. ``bind(to:progressSteps:render:)`` renders the row at once and then each
/// time what it shows changes; binding again (when the cell is reused for another row) atomically ends
/// the previous binding, so a reused cell never shows another row's time, not even a change that was
/// already on its way. A slot that is released unbinds itself; it holds its render closure but the
/// board holds nothing of the slot's, so there is no retain cycle with the cell (capture the cell
/// weakly in `render`, as with any stored closure).
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
/// Any number of slots can show one row at once (the row's cell in a list and a detail screen): each
/// is rendered at every change of what it shows, and one slot letting go leaves the others bound. The
/// engine computes the row once per change for all of them.
@MainActor
public final class CountdownSlot<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>
where C.Duration == Duration {
  /// What `render` receives.
  public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

  private let board: CountdownBoard<ID, Display, C>
  /// Readable from `deinit`, which is not on the main actor.
  private let state = SlotState<ID>()

  init(board: CountdownBoard<ID, Display, C>) {
    self.board = board
  }

  /// The row the slot shows, if any.
  public var boundID: ID? {
    state.current.withLock { $0?.id }
  }

  /// Shows row `id`: renders it at once if it is on the board (or as soon as it is added), then each
  /// time its value, or whether it is paused or finished, changes. Ends the previous binding first.
  ///
  /// With `progressSteps`, the slot also draws a ring (or a bar) of the row's progress: it is rendered
  /// at each of the ring's visible steps over the row's own total, so that `snapshot.progress` moves
  /// the ring as smoothly as the eye can see, and no more often. Give it as many steps as the ring has
  /// pixels along its circumference, `RingGeometry.visibleSteps(diameter:lineWidth:scale:)`. A row
  /// without a total has no progress (`nil`) and is rendered at the display's changes only.
  ///
  /// A row that leaves the board leaves the slot with its last snapshot; if it comes back, the slot is
  /// rendered when what it shows differs from that snapshot.
  ///
  /// - Precondition: `progressSteps`, when given, is in 1…1,000,000.
  public func bind(to id: ID, progressSteps: Int? = nil, render: @escaping @MainActor (Snapshot) -> Void) {
    if let progressSteps {
      precondition(
        (1...1_000_000).contains(progressSteps), "progressSteps must be in 1...1_000_000, got \(progressSteps)")
    }
    unbind()
    let token = board.reserveToken()
    state.current.withLock { $0 = SlotState<ID>.Current(id: id, token: token) }
    board.bind(id, token: token, progressSteps: progressSteps, render: render)
  }

  /// Stops showing the row; its countdown goes on and still reports its completion.
  public func unbind() {
    guard let old = state.take() else { return }
    board.unbind(old.id, token: old.token)
  }

  deinit {
    if let old = state.take() { board.unbind(old.id, token: old.token) }
  }
}

extension CountdownBoard {
  /// A new slot for a cell or widget.
  @MainActor
  public func slot() -> CountdownSlot<ID, Display, C> {
    CountdownSlot(board: self)
  }

  /// A fresh binding token.
  func reserveToken() -> UInt64 {
    tokens.add(1, ordering: .relaxed).newValue
  }
}
