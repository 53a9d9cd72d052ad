import CountdownInput

/// Follows the database: reads the orders again each time another process commits to it, which
/// SQLite's `PRAGMA data_version` tells (polled every quarter of a second).
@MainActor
final class BoardFollower {
  private let store: any OrderSource
  private var version: Int?
  private var task: Task<Void, Never>?

  init(store: any OrderSource) {
    self.store = store
  }

  /// Reads the orders now.
  func read() throws -> OrderStore.Listing {
    version = try store.dataVersion()
    return try store.listing()
  }

  /// Calls `onChange` with a fresh listing after each commit by another process, and `onError` with
  /// a sanitized message when the database cannot be read (it keeps trying).
  func start(
    onChange: @escaping @MainActor (OrderStore.Listing) -> Void, onError: @escaping @MainActor (String) -> Void
  ) {
    task = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        guard let self else { return }
        do {
          let current = try self.store.dataVersion()
          guard current != self.version else { continue }
          let listing = try self.store.listing()
          self.version = current
          onChange(listing)
        } catch {
          onError(TerminalText.sanitized("\(error)"))
        }
      }
    }
  }

  func stop() {
    task?.cancel()
  }
}
