/// The main-actor side of display class 0: countdowns that show nothing and only report their
/// completion.
@MainActor
final class FinishTable: SubscriberTable {
  private var onFinish: [UInt32: @MainActor @Sendable () -> Void] = [:]
  /// The serial number of each slot's subscriber (see `SinkTable.serials`).
  private var serials: [UInt32: UInt32] = [:]

  nonisolated init() {}

  nonisolated var valueType: Any.Type { Void.self }

  /// Installs a countdown's completion in slot `sink`, as subscriber number `serial`.
  func install(_ sink: UInt32, serial: UInt32, onFinish: @escaping @MainActor @Sendable () -> Void) {
    self.onFinish[sink] = onFinish
    serials[sink] = serial
  }

  /// Class 0's changes show nothing: skips them.
  func deliver(
    _ changes: UnsafeBufferPointer<Effects.Change>, at tick: Tick, skipping dropped: Set<SubscriberKey>,
    while check: Mailbox.CancellationCheck
  ) -> (handled: Int, prefetched: UInt) {
    (Effects.runLength(changes), 0)
  }

  func finish(_ sink: UInt32) {
    onFinish[sink]?()
  }

  func remove(_ sink: UInt32) {
    onFinish[sink] = nil
  }

  func serial(of sink: UInt32) -> UInt32 {
    serials[sink] ?? 0
  }
}
