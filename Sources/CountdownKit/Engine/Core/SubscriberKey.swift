/// One subscriber among every subscriber an engine ever had: its sink slot and its serial number.
@usableFromInline
package struct SubscriberKey: Hashable, Sendable {
  @usableFromInline package var sink: SinkKey
  @usableFromInline package var serial: UInt32

  @inlinable
  package init(_ sink: SinkKey, serial: UInt32) {
    self.sink = sink
    self.serial = serial
  }
}
