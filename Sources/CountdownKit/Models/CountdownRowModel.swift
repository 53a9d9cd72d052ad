#if canImport(Observation)
  public import Observation

  /// An observable row of a ``CountdownBoard`` for a SwiftUI list: owns one slot, shows the row it is
  /// told to, and publishes once per visible change.
  ///
  /// Make one per row view and keep it in the view's `@State`; call ``show(_:)`` with the row's ID
  /// when the view appears and when its ID changes, and ``hide()`` when it disappears. The model's
  /// properties change only when what the row shows changes (the display value, the paused or finished
  /// flag, and with `progressSteps` the ring's visible step), each only when its own value does; ticks
  /// that change nothing visible publish nothing.
  ///
  /// ```swift
  /// let countdown = CountdownRowModel(board: board)   // in the row view's @State
  /// countdown.show(order.id)                          // in onAppear and onChange(of: order.id)
  /// countdown.hide()                                  // in onDisappear
  /// Text(countdown.value ?? .zero, format: .countdown(.coarse))
  /// ```
  ///
  /// ### When bindings end
  ///
  /// The model's binding to its row ends when it is told to (``hide()``, or ``show(_:)`` with another
  /// row) and when the model goes. SwiftUI keeps a row view's `@State` while the row is in the list's
  /// data, on screen or not: a model that is never hidden stays bound after its row scrolls away, and a
  /// list scrolled through thousands of rows keeps thousands of live bindings. Hide it in
  /// `onDisappear` and show it again in `onAppear` (it renders at once, with no blank frame): the
  /// bindings are then the rows on screen. Several models may show one row at once (its list row and a
  /// detail view), each live.
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
    /// The visible steps of the row's ring, if the view draws one.
    @ObservationIgnored private let progressSteps: Int?

    /// A model that shows rows of `board`, through a slot of its own.
    ///
    /// - Parameters:
    ///   - board: The board whose rows the model shows.
    ///   - progressSteps: For a view that draws the row's progress as a ring or a bar: its number of
    ///     visible steps (`RingGeometry.visibleSteps(diameter:lineWidth:scale:)`). ``progress`` then
    ///     changes at each step over the row's own total, as well as when the value does; without it,
    ///     only when the value or a flag changes.
    /// - Precondition: `progressSteps`, when given, is in 1…1,000,000.
    public init(board: CountdownBoard<ID, Display, C>, progressSteps: Int? = nil) {
      if let progressSteps {
        precondition(
          (1...1_000_000).contains(progressSteps), "progressSteps must be in 1...1_000_000, got \(progressSteps)")
      }
      self.board = board
      self.progressSteps = progressSteps
      slot = board.slot()
    }

    /// Shows row `id`: at once if it is on the board (or as soon as it is added), then at every visible
    /// change. Showing the row already shown changes nothing; showing another ends the previous binding
    /// first, so the model never shows one row's time for another.
    public func show(_ id: ID) {
      guard id != self.id || slot.boundID != id else { return }
      self.id = id
      apply(board.snapshot(for: id), replacing: true)
      slot.bind(to: id, progressSteps: progressSteps) { [weak self] snapshot in
        self?.apply(snapshot, replacing: false)
      }
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
        // With a ring, the slot hands over each visible step of it: a new progress is a visible change.
        guard let new,
          new.looksDifferent(from: snapshot) || (progressSteps != nil && new.progress != snapshot?.progress)
        else { return }
      }
      if snapshot != new { snapshot = new }
      if value != new?.value { value = new?.value }
      if progress != new?.progress { progress = new?.progress }
      if isPaused != (new?.isPaused ?? false) { isPaused = new?.isPaused ?? false }
      if isFinished != (new?.isFinished ?? false) { isFinished = new?.isFinished ?? false }
    }
  }
#endif
