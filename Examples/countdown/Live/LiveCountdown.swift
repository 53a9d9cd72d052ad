import CountdownKit
import Foundation

/// The countdown on a terminal: a ring that empties, the time, redrawn in place by sending only the
/// cells that change; keys to pause, adjust, record laps and quit; a sequence of countdowns one after
/// another; at zero a bell, `--exec`, and with `--end-text` or `--blink` a finale until a key.
@MainActor
final class LiveCountdown {
  let plan: RunPlan
  let engine: Engine
  let effects: RunEffects
  /// The countdown of the sequence that runs, and its setup.
  var index = 0
  var setup: CountdownSetup?
  var handle: Handle?
  var display: CommandDisplay?
  var latest: CountdownSnapshot<CommandDisplay.Value, EngineInstant>?
  var announcements: Announcements?
  /// When the countdown ends, by the wall clock, for the status line ("ends 18:25:00", formatted once).
  var deadline: Date? {
    didSet { deadlineText = deadline.map { "ends \(clockTime($0))" } }
  }
  var deadlineText: String?
  /// The wall-clock date the engine counts to, while it follows one.
  var target: Date?
  var laps = Laps()
  var ring: BrailleRing
  var writer = ScreenWriter()
  /// Set once the last countdown has ended and the finale (`--end-text`, `--blink`) shows.
  var isInFinale = false
  var isFlashed = false
  var shownTitle: String?
  private var ended: CheckedContinuation<RunOutcome, Never>?
  private var signals: SignalHandlers?
  private var keys: KeyReader?
  private var tasks: [Task<Void, Never>] = []

  init(plan: RunPlan, engine: Engine, effects: RunEffects) {
    self.plan = plan
    self.engine = engine
    self.effects = effects
    ring = LiveFrameBuilder.ring(forRows: Terminal.size.rows)
  }

  /// Runs until the last countdown ends or the user quits; returns how it ended, with the lines to
  /// print once the terminal is restored (a summary, and the laps of a stopwatch).
  func run() async throws -> RunOutcome {
    signals = SignalHandlers(
      live: true,
      onContinue: { [weak self] in self?.enterTerminal() },
      onResize: { [weak self] in self?.resized() })
    enterTerminal()
    Terminal.querySynchronizedOutput()
    keys = KeyReader { [weak self] keys in self?.press(keys) }
    var failure: (any Error)?
    let outcome = await withCheckedContinuation { continuation in
      ended = continuation
      do {
        try start(0)
      } catch {
        failure = error
        finish([], reachedZero: false)
      }
    }
    keys?.cancel()
    handle?.cancel()
    for task in tasks { task.cancel() }
    Terminal.restore()
    await effects.finish()
    if let failure { throw failure }
    return outcome
  }

  /// Enters live mode (at the start and on SIGCONT) and draws everything again.
  private func enterTerminal() {
    Terminal.enterLiveMode()
    if plan.windowTitle { Terminal.saveWindowTitle() }
    shownTitle = nil
    writer.invalidate()
    refresh()
  }

  /// Starts countdown `index` of the sequence.
  func start(_ index: Int) throws {
    self.index = index
    let setup = try plan.setup(index, on: engine)
    self.setup = setup
    announcements = effects.announcements(total: setup.countdown.total)
    let display = setup.display(ringSteps: ring.dotCount, announcements: announcements)
    self.display = display
    target = setup.deadline
    laps.removeAll()
    effects.started(remaining: setup.countdown.remaining(at: engine.now), announcements: announcements)
    handle = try setup.start(on: engine, display: display) { [weak self] snapshot in self?.show(snapshot) }
    updateDeadline()
  }

  /// Starts the handle again with a ring of the current size, keeping the countdown as it is.
  func restartForRing() {
    guard let setup, let handle, let countdown = handle.countdown, !isInFinale else { return }
    let display = setup.display(ringSteps: ring.dotCount, announcements: announcements)
    self.display = display
    handle.cancel()
    let onChange: @MainActor @Sendable (CountdownSnapshot<CommandDisplay.Value, EngineInstant>) -> Void = {
      [weak self] snapshot in self?.show(snapshot)
    }
    if let target, !countdown.isPaused,
      let followed = try? engine.add(until: target, total: countdown.total, display: display, onChange: onChange)
    {
      self.handle = followed
    } else {
      self.handle = engine.add(countdown, display: display, onChange: onChange)
    }
  }

  private func show(_ snapshot: CountdownSnapshot<CommandDisplay.Value, EngineInstant>) {
    guard ended != nil, !isInFinale else { return }
    latest = snapshot
    effects.changed(snapshot.value)
    draw()
    if snapshot.isFinished && setup?.stopsAtEnd == true { countdownEnded() }
  }

  /// The countdown that runs reached zero: the bell, `--exec`, then the next one or the end.
  private func countdownEnded() {
    handle?.cancel()
    if plan.bell { Terminal.write("\u{7}") }
    effects.ended(index)
    if index + 1 < plan.items.count {
      do {
        try start(index + 1)
      } catch {
        finish(["countdown: \(TerminalText.sanitized("\(error)"))"], reachedZero: false)
      }
      return
    }
    let summary = "\(plan.items[index].title ?? "countdown"): time's up at \(clockTime(Date()))"
    guard plan.staysAtEnd else { return finish([summary], reachedZero: true) }
    isInFinale = true
    draw()
    if plan.blink {
      tasks.append(
        Task { [weak self] in
          while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(500))
            self?.isFlashed.toggle()
            self?.draw()
          }
        })
    }
    if let quitAfter = plan.quitAfter {
      tasks.append(
        Task { [weak self] in
          try? await Task.sleep(for: quitAfter)
          if !Task.isCancelled { self?.finish([summary], reachedZero: true) }
        })
    }
  }

  /// Recomputes the snapshot at this instant (after a key, a resize or SIGCONT) and redraws.
  func refresh() {
    if let countdown = handle?.countdown, let display, !isInFinale {
      latest = countdown.snapshot(at: engine.now, display: display)
    }
    draw()
  }

  private func resized() {
    let fitting = LiveFrameBuilder.ring(forRows: Terminal.size.rows)
    if fitting != ring {
      ring = fitting
      restartForRing()
    }
    writer.invalidate()
    refresh()
  }

  func updateDeadline() {
    guard let countdown = handle?.countdown, !countdown.isPaused else { return }
    deadline = Date().addingTimeInterval(countdown.remaining(at: engine.now).timeIntervalValue)
  }

  /// Ends the run with `lines` to print; `reachedZero`: see ``RunOutcome/reachedZero``.
  func finish(_ lines: [String], reachedZero: Bool) {
    ended?.resume(returning: RunOutcome(lines: lines, reachedZero: reachedZero))
    ended = nil
  }

  /// Whether the run has ended (nothing more is drawn).
  var hasEnded: Bool { ended == nil }

  func clockTime(_ date: Date) -> String {
    date.formatted(Date.FormatStyle(date: .omitted, time: .standard, locale: plan.locale))
  }
}
