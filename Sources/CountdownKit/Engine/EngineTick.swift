/// An instant of the engine's clock, as the time since the engine's origin (the instant it started).
///
/// The scheduler works on this one concrete type rather than on the clock's instant type, so that its
/// hot path (heaps, entries, countdowns) is compiled for a known type inside CountdownKit instead of
/// as unspecialised generic code that looks its types up at run time on every change. The engine
/// converts at its edge: ``CountdownEngine`` turns its clock's instants into ticks when it reads the
/// clock and back when it hands out snapshots.
///
/// Exact to the attosecond, like `Duration`: the same 128-bit attosecond count, so that comparing two
/// ticks and turning their difference into a `Duration` compile to a few inlined integer
/// instructions. Stored as two 64-bit halves rather than as an `Int128`, whose 16-byte alignment
/// would pad every entry and queued item that holds a tick.
@usableFromInline
package struct EngineTick: InstantProtocol, Sendable {
  @usableFromInline let high: Int64
  @usableFromInline let low: UInt64

  /// Attoseconds since the origin (negative before it).
  @inlinable
  var attoseconds: Int128 {
    Int128(high) << 64 | Int128(low)
  }

  @inlinable
  init(attoseconds: Int128) {
    high = Int64(truncatingIfNeeded: attoseconds >> 64)
    low = UInt64(truncatingIfNeeded: attoseconds)
  }

  /// The tick `offset` after the origin.
  @inlinable
  package init(offset: Duration) {
    self.init(attoseconds: offset.attoseconds)
  }

  /// The time since the origin.
  @inlinable
  package var offset: Duration {
    Duration(attoseconds: attoseconds)
  }

  @inlinable
  package func advanced(by duration: Duration) -> EngineTick {
    EngineTick(attoseconds: attoseconds + duration.attoseconds)
  }

  @inlinable
  package func duration(to other: EngineTick) -> Duration {
    Duration(attoseconds: other.attoseconds - attoseconds)
  }

  @inlinable
  package static func < (lhs: EngineTick, rhs: EngineTick) -> Bool {
    lhs.high < rhs.high || (lhs.high == rhs.high && lhs.low < rhs.low)
  }

  @inlinable
  package static func == (lhs: EngineTick, rhs: EngineTick) -> Bool {
    lhs.high == rhs.high && lhs.low == rhs.low
  }

  @inlinable
  package func hash(into hasher: inout Hasher) {
    hasher.combine(high)
    hasher.combine(low)
  }
}

extension EngineTick: CustomStringConvertible {
  @usableFromInline package var description: String { "tick \(offset)" }
}
