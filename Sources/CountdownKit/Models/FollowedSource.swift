#if canImport(Observation)
  /// What a ``FollowingCountdownModel`` follows: the task that reads a sequence, or a subscription (a
  /// Combine `AnyCancellable`, which cancels itself when released). Letting go of it stops the
  /// following.
  package final class FollowedSource {
    private let task: Task<Void, Never>?
    private let subscription: AnyObject?

    /// The source read by `task`, cancelled when this goes away.
    package init(task: Task<Void, Never>) {
      self.task = task
      subscription = nil
    }

    /// The source `subscription` receives from, released when this goes away.
    package init(subscription: AnyObject) {
      task = nil
      self.subscription = subscription
    }

    deinit {
      task?.cancel()
    }
  }
#endif
