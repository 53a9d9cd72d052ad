/// The slots that show one row of a board (a list cell, a detail screen, a widget: any number at
/// once), kept while the row is absent too, so that they show it when it comes.
///
/// The engine gives a row one binding; the board makes it one subscriber that hands each change to
/// every slot showing the row (see `CountdownBoard.installSlots(of:row:in:_:at:)`), and makes it again
/// whenever a slot joins or leaves, or the ring it draws changes.
@usableFromInline
struct RowSlots<Entry: Sendable>: Sendable {
  /// One slot showing the row.
  struct Slot: Sendable {
    /// The slot's binding token: what its unbinding names.
    let token: UInt64
    /// The number of visible steps of the slot's ring, if it draws one.
    let progressSteps: Int?
    /// Where the slot's renders go: a `SlotEntry` of the board's value and instant types.
    let entry: Entry
  }

  /// The rings of the row's engine binding: the distinct numbers of steps of its slots' rings, in
  /// increasing order, and the row's total, in ticks.
  struct Rings: Hashable, Sendable {
    let steps: [Int]
    let total: Tick
  }

  /// The slots, in the order they were bound.
  var slots: [Slot] = []
  /// The rings the row's engine binding steps through, if a slot draws one and the row has a total.
  var rings: Rings?

  /// The rings a binding for a row of `total` ticks (negative for none) steps through.
  func rings(forTotal total: Tick) -> Rings? {
    guard total > 0 else { return nil }
    let steps = Set(slots.lazy.compactMap(\.progressSteps)).sorted()
    return steps.isEmpty ? nil : Rings(steps: steps, total: total)
  }
}
