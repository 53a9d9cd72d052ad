/// A handler registered on a ``CountdownBoard`` (``CountdownBoard/onFinish(_:)``,
/// ``CountdownBoard/onChanges(_:)``), kept as long as you keep this: ``cancel()`` removes it, and so does
/// letting go of it.
///
/// Keep it where the handler's work lives, as you keep a Combine `AnyCancellable`: in the view
/// controller or the model that the handler updates, so that the handler goes when it does. A handler
/// that captures what keeps the observation (the controller, strongly) makes a cycle; capture it
/// weakly. A handler may capture the board: the board holds handlers, not observations.
///
/// ```swift
/// finishing = board.onFinish { [weak self] id in self?.orderExpired(id) }
/// ```
public final class BoardObservation: Sendable {
  private let removal: Lock<(@Sendable () -> Void)?>

  init(removal: @escaping @Sendable () -> Void) {
    self.removal = Lock(removal)
  }

  /// An observation of nothing: for a handler that will never be called.
  static var none: BoardObservation { BoardObservation {} }

  /// Removes the handler: once this returns, the board does not call it again (a call that is running
  /// on the main actor at that moment finishes). Cancelling twice does nothing more.
  public func cancel() {
    let remove = removal.withLock { removal in
      defer { removal = nil }
      return removal
    }
    remove?()
  }

  deinit {
    cancel()
  }
}
