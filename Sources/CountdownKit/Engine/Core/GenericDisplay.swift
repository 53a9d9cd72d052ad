/// The generic path of a display class whose display has no plan (see ``DisplayPlan``): the display's
/// own functions, and the value each binding of the class last showed, to tell a change.
///
/// A value type kept in the core (``DisplayClasses/generic``), under the engine's lock like the rest of
/// the core; made for the display in inlinable code (``GenericDisplay/init(_:)``).
@usableFromInline
package protocol GenericValues: Sendable {
  /// Renders `remaining` ticks for `binding`: whether the value differs from the last one rendered for
  /// it (always the first time), and the remaining time at which it next changes, in ticks (nil: never).
  mutating func step(_ binding: UInt32, remaining: Tick) -> (changed: Bool, next: Tick?)
  /// Forgets what `binding` showed (it went away).
  mutating func forget(_ binding: UInt32)
}

/// ``GenericValues`` for `Display`.
@usableFromInline
package struct GenericDisplay<Display: CountdownDisplay>: GenericValues {
  @usableFromInline let display: Display
  @usableFromInline var last: [UInt32: Display.Value] = [:]

  @inlinable
  package init(_ display: Display) {
    self.display = display
  }

  @usableFromInline
  package mutating func step(_ binding: UInt32, remaining: Tick) -> (changed: Bool, next: Tick?) {
    let left = Ticks.duration(remaining)
    let value = display.value(remaining: left)
    let changed = last.updateValue(value, forKey: binding) != value
    // The next change as a tick count rounded down: never before the display's own instant.
    return (changed, display.nextChange(after: left).map(Ticks.floor))
  }

  @usableFromInline
  package mutating func forget(_ binding: UInt32) {
    last[binding] = nil
  }
}
