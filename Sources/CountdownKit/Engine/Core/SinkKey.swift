/// A sink among all sinks of an engine: its display class and its slot there.
@usableFromInline
package struct SinkKey: Hashable, Sendable {
  @usableFromInline package var displayClass: UInt32
  @usableFromInline package var sink: UInt32

  @inlinable
  package init(displayClass: UInt32, sink: UInt32) {
    self.displayClass = displayClass
    self.sink = sink
  }
}
