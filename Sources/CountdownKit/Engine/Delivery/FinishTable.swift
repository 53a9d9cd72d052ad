/// The main-actor side of display class 0: countdowns that show nothing and only report completion.
@MainActor
@usableFromInline
final class FinishTable: Sendable {
  /// A countdown that shows nothing: its completion callback, in a box made where it is added.
  @usableFromInline
  final class Subscriber: Sendable {
    let onFinish: @MainActor @Sendable () -> Void

    init(_ onFinish: @escaping @MainActor @Sendable () -> Void) {
      self.onFinish = onFinish
    }
  }

  var subscribers: [UInt32: Subscriber] = [:]
  /// The serial number of each slot's subscriber (see `SinkTable.serials`).
  var serials: [UInt32: UInt32] = [:]

  nonisolated init() {}

  func install(_ sink: UInt32, serial: UInt32, _ subscriber: any AnyObject & Sendable) {
    guard let subscriber = subscriber as? Subscriber else {
      preconditionFailure("Internal inconsistency: \(type(of: subscriber)) installed in the finish table")
    }
    subscribers[sink] = subscriber
    serials[sink] = serial
  }
}
