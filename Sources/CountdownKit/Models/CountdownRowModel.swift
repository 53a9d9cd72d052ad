#if canImport(Observation)
  public import Observation

  /// An observable row of a ``CountdownBoard`` for a SwiftUI list: owns one slot, shows the row it is
  /// told to, and publishes once per visible change.
  ///
  /// Make one per row view and keep it in the view's `@State`; call ``show(_:)`` with the row's ID
  /// when the view appears and when its ID changes. The model's properties change only when what the
  /// row shows changes (the display value, or the paused or finished flag), each only when its own
  /// value does; ticks that change nothing visible publish nothing. When SwiftUI discards the view's
  /// state, the model goes, and its slot unbinds: the board keeps no trace of it.
  ///
  /// ```swift
  /// let countdown = CountdownRowModel(board: board)   // in the row view's @State
  /// countdown.show(order.id)                          // in onAppear and onChange(of: order.id)
  /// Text(countdown.value ?? .zero, format: .countdown(.coarse))
  /// ```
  ///
  /// Lists and Cells has a whole row view.
  @MainActor @Observable
  public final class CountdownRowModel<ID: Hashable & Sendable, Display: CountdownDisplay, C: Clock>
  where C.Duration == Duration {
    /// What the model publishes.
    public typealias Snapshot = CountdownSnapshot<Display.Value, C.Instant>

    /// The row shown, if any.
    public private(set) var id: ID?
    /// The row's latest snapshot whose value or flags differ from the one before; `nil` before the row
    /// is on the board. A row removed from the board leaves its last snapshot.
    public private(set) var snapshot: Snapshot?
    /// The display's value, e.g. "1.5 hours" as a duration; `nil` without a snapshot.
    public private(set) var value: Display.Value?
    /// The fraction of the row's total left (0…1) at the latest visible change; `nil` without a total.
    public private(set) var progress: Double?
    /// Whether the row is paused.
    public private(set) var isPaused = false
    /// Whether no time is left in the row.
    public private(set) var isFinished = false

    @ObservationIgnored private let board: CountdownBoard<ID, Display, C>
    @ObservationIgnored private let slot: CountdownSlot<ID, Display, C>

    /// A model that shows rows of `board`, through a slot of its own.
    public init(board: CountdownBoard<ID, Display, C>) {
      self.board = board
      slot = board.slot()
    }

    /// Shows row `id`: at once if it is on the board (or as soon as it is added), then at every visible
    /// change. Showing the row already shown does nothing; showing another ends the previous binding
    /// first, so the model never shows one row's time for another.
    public func show(_ id: ID) {
      guard id != self.id else { return }
      self.id = id
      apply(board.snapshot(for: id), replacing: true)
      slot.bind(to: id) { [weak self] snapshot in self?.apply(snapshot, replacing: false) }
    }

    /// Stops showing a row: no more changes, and ``snapshot`` and the values are cleared.
    public func hide() {
      guard id != nil else { return }
      slot.unbind()
      id = nil
      apply(nil, replacing: true)
    }

    /// Hands the model a snapshot of its row as the engine would: for tests of what it publishes.
    package func _receive(_ snapshot: Snapshot) { apply(snapshot, replacing: false) }

    /// Publishes `new` if it looks different, touching only the properties that change; `replacing`
    /// publishes it even if it looks the same (another row's snapshot, or none: a row not on the board).
    private func apply(_ new: Snapshot?, replacing: Bool) {
      if !replacing {
        guard let new, new.looksDifferent(from: snapshot) else { return }
      }
      if snapshot != new { snapshot = new }
      if value != new?.value { value = new?.value }
      if progress != new?.progress { progress = new?.progress }
      if isPaused != (new?.isPaused ?? false) { isPaused = new?.isPaused ?? false }
      if isFinished != (new?.isFinished ?? false) { isFinished = new?.isFinished ?? false }
    }
  }
#endif
