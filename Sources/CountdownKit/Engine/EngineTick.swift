/// An instant of the engine's clock, as the time since the engine's origin (the instant it started).
///
/// The scheduler works on this one concrete type rather than on the clock's instant type, so that its
/// hot path (heaps, entries, countdowns) is compiled for a known type inside CountdownKit instead of
/// as unspecialised generic code that looks its types up at run time on every change. The engine
/// converts at its edge: ``CountdownEngine`` turns its clock's instants into ticks when it reads the
/// clock and back when it hands out snapshots. The offset is a `Duration`, so nothing is rounded.
@usableFromInline
package struct EngineTick: InstantProtocol, Sendable {
  /// The time since the engine's origin.
  @usableFromInline package var offset: Duration

  /// The tick `offset` after the origin.
  @inlinable
  package init(offset: Duration) {
    self.offset = offset
  }

  @inlinable
  package func advanced(by duration: Duration) -> EngineTick {
    EngineTick(offset: offset + duration)
  }

  @inlinable
  package func duration(to other: EngineTick) -> Duration {
    other.offset - offset
  }

  @inlinable
  package static func < (lhs: EngineTick, rhs: EngineTick) -> Bool {
    lhs.offset < rhs.offset
  }
}
