import CountdownKit

/// The countdown for scripts: one line per change of the displayed text, flushed at once.
///
/// The engine delivers a snapshot only when the text changes, so a line is never repeated; after a
/// suspension (SIGSTOP, Ctrl-Z) it delivers the current value once, not the values missed.
@MainActor
final class PlainCountdown {
  private var ended: CheckedContinuation<Void, Never>?
  private var handle: Handle?

  /// Prints the countdown until it ends (the last line is the zero value), or forever for a
  /// stopwatch or with overtime.
  static func run(_ setup: CountdownSetup, engine: Engine) async throws {
    let printer = PlainCountdown()
    try await printer.run(setup, engine: engine)
  }

  private func run(_ setup: CountdownSetup, engine: Engine) async throws {
    var failure: (any Error)?
    await withCheckedContinuation { continuation in
      ended = continuation
      do {
        handle = try setup.start(on: engine, display: setup.text) { [weak self] snapshot in
          guard let self, self.ended != nil else { return }
          Terminal.write(snapshot.value + "\n")
          if snapshot.isFinished && setup.stopsAtEnd { self.finish() }
        }
      } catch {
        failure = error
        finish()
      }
    }
    handle?.cancel()
    if let failure { throw failure }
  }

  private func finish() {
    ended?.resume()
    ended = nil
  }
}
