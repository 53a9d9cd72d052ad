import CountdownKit

/// The countdown for scripts: one line per change of the displayed text, flushed at once; a
/// sequence of countdowns prints one after another.
///
/// The engine delivers a snapshot only when the display changes, and a line is printed only when
/// the text differs from the last one, so a line is never repeated; after a suspension (SIGSTOP,
/// Ctrl-Z) it delivers the current value once, not the values missed.
@MainActor
final class PlainCountdown {
  private let plan: RunPlan
  private let engine: Engine
  private let effects: RunEffects
  private var ended: CheckedContinuation<Void, Never>?
  private var handle: Handle?
  private var index = 0
  private var lastLine: String?
  private var failure: (any Error)?

  init(plan: RunPlan, engine: Engine, effects: RunEffects) {
    self.plan = plan
    self.engine = engine
    self.effects = effects
  }

  /// Prints the countdowns until the last one ends (its last line is the zero value), or forever
  /// for a stopwatch or with overtime.
  func run() async throws {
    await withCheckedContinuation { continuation in
      ended = continuation
      start(0)
    }
    handle?.cancel()
    await effects.finish()
    if let failure { throw failure }
  }

  private func start(_ index: Int) {
    self.index = index
    lastLine = nil
    do {
      let setup = try plan.setup(index, on: engine)
      let announcements = effects.announcements(total: setup.countdown.total)
      effects.started(remaining: setup.countdown.remaining(at: engine.now), announcements: announcements)
      let display = setup.display(ringSteps: nil, announcements: announcements)
      handle = try setup.start(on: engine, display: display) { [weak self] snapshot in
        guard let self, self.ended != nil, self.index == index else { return }
        self.effects.changed(snapshot.value)
        if snapshot.value.text != self.lastLine {
          self.lastLine = snapshot.value.text
          Terminal.write(snapshot.value.text + "\n")
        }
        if snapshot.isFinished && setup.stopsAtEnd { self.countdownEnded() }
      }
    } catch {
      failure = error
      finish()
    }
  }

  private func countdownEnded() {
    handle?.cancel()
    effects.ended(index)
    if index + 1 < plan.items.count {
      start(index + 1)
    } else {
      finish()
    }
  }

  private func finish() {
    ended?.resume()
    ended = nil
  }
}
