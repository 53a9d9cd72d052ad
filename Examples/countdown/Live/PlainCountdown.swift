import CountdownCore

/// The countdown for scripts: one line per change of the displayed text, flushed at once.
///
/// The engine delivers a snapshot only when the text changes, so a line is never repeated; after a
/// suspension (SIGSTOP, Ctrl-Z) it delivers the current value once, not the values missed.
@MainActor
enum PlainCountdown {
  /// Prints the countdown until it ends (the last line is the zero value), or forever for a
  /// stopwatch or with overtime.
  static func run(_ setup: CountdownSetup, engine: Engine) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      var handle: InterimHandle?
      var ended = false
      handle = engine.add(setup.countdown, display: setup.text) { snapshot in
        guard !ended else { return }
        Terminal.write(snapshot.value + "\n")
        if snapshot.isFinished && setup.stopsAtEnd {
          ended = true
          handle?.cancel()
          done.resume()
        }
      }
    }
  }
}
