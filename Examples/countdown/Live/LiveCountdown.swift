import CountdownInput
import CountdownKit
import Foundation

/// The countdown on a terminal: a ring that empties, the time, redrawn in place; keys to pause,
/// adjust and quit.
@MainActor
final class LiveCountdown {
  private typealias Display = CombinedDisplay<
    CombinedDisplay<MappedDisplay<OffsetDisplay<TimeDisplay>, String>, PhaseDisplay<Urgency>>, RingDisplay
  >

  private let setup: CountdownSetup
  private let engine: Engine
  private let title: String?
  private let locale: Locale
  private let display: Display
  private var ring: BrailleRing
  private var handle: Handle?
  private var latest: CountdownSnapshot<Display.Value, EngineInstant>?
  private var deadline: Date?
  /// The wall-clock date the engine counts to, while it follows one.
  private var target: Date?
  private var ended: CheckedContinuation<String, Never>?
  private var signals: SignalHandlers?
  private var keys: KeyReader?

  init(_ setup: CountdownSetup, engine: Engine, title: String?, locale: Locale) {
    self.setup = setup
    self.engine = engine
    self.title = title.map(TerminalText.sanitized)
    self.locale = locale
    target = setup.deadline
    ring = BrailleRing(rows: Self.ringRows(for: Terminal.size.rows))
    let total = setup.countdown.total
    let steps = BrailleRing(rows: 10).dotCount
    let ring: RingDisplay.Kind =
      if let total {
        setup.countsUp
          ? .done(ProgressDisplay(steps: steps, total: total)) : .left(ProgressDisplay(steps: steps, total: total))
      } else {
        .minute(steps: 60)
      }
    display = setup.text
      .combined(with: setup.countsUp ? .phases(.plenty, [:]) : Urgency.phases(total: total))
      .combined(with: RingDisplay(kind: ring))
  }

  /// Runs until the countdown ends or the user quits; returns the line to leave on the screen.
  func run() async throws -> String {
    signals = SignalHandlers(
      live: true,
      onContinue: { [weak self] in
        Terminal.enterLiveMode()
        self?.refresh()
      },
      onResize: { [weak self] in self?.refresh() })
    Terminal.enterLiveMode()
    keys = KeyReader { [weak self] keys in self?.press(keys) }
    var failure: (any Error)?
    let summary = await withCheckedContinuation { continuation in
      ended = continuation
      do {
        handle = try setup.start(on: engine, display: display) { [weak self] snapshot in self?.show(snapshot) }
        updateDeadline()
      } catch {
        failure = error
        finish("")
      }
    }
    keys?.cancel()
    handle?.cancel()
    Terminal.restore()
    if let failure { throw failure }
    return summary
  }

  private func show(_ snapshot: CountdownSnapshot<Display.Value, EngineInstant>) {
    latest = snapshot
    draw()
    if snapshot.isFinished && setup.stopsAtEnd {
      Terminal.write("\u{7}")
      finish("\(title ?? "countdown"): time's up at \(clockTime(Date()))")
    }
  }

  private func press(_ keys: [Key]) {
    guard let handle, let countdown = handle.countdown else { return }
    for key in keys {
      switch key {
      case .character(" "), .character("p"):
        if countdown.isPaused {
          handle.resume()
        } else {
          handle.pause()
          // A paused countdown no longer follows the wall clock (see CountdownHandle.pause()).
          target = nil
        }
      case .character("+"), .character("="), .up, .right:
        extend(by: setup.countsUp ? .seconds(-60) : .seconds(60))
      case .character("-"), .character("_"), .down, .left:
        extend(by: setup.countsUp ? .seconds(60) : .seconds(-60))
      case .character("q"), .character("Q"), .escape:
        let left = latest?.value.first.first ?? ""
        finish("\(title ?? "countdown"): stopped at \(left)")
        return
      default:
        continue
      }
    }
    updateDeadline()
    refresh()
  }

  /// Recomputes the snapshot at this instant (after a key, a resize or SIGCONT) and redraws.
  private func refresh() {
    guard let countdown = handle?.countdown else { return }
    ring = BrailleRing(rows: Self.ringRows(for: Terminal.size.rows))
    latest = countdown.snapshot(at: engine.now, display: display)
    draw()
  }

  private func draw() {
    guard let snapshot = latest, ended != nil else { return }
    let status: String
    if snapshot.isPaused {
      status = "paused"
    } else if setup.countsUp {
      status = "stopwatch"
    } else if snapshot.isFinished {
      status = "time's up"
    } else {
      status = deadline.map { "ends \(clockTime($0))" } ?? ""
    }
    let frame = LiveCountdownFrame(
      text: snapshot.value.first.first,
      progress: snapshot.value.second,
      urgency: snapshot.value.first.second,
      title: title,
      status: status,
      isPaused: snapshot.isPaused)
    let size = Terminal.size
    Terminal.write(frame.render(columns: size.columns, rows: size.rows, ring: ring))
  }

  /// Adds `amount` to the time left; a countdown that follows a wall-clock date is retargeted to a
  /// date `amount` later, so that it keeps following the wall clock.
  private func extend(by amount: Duration) {
    guard let handle else { return }
    if let date = target {
      let moved = date.addingTimeInterval(amount.timeIntervalValue)
      if (try? handle.retarget(to: moved)) != nil {
        target = moved
        return
      }
    }
    handle.extend(by: amount)
  }

  private func updateDeadline() {
    guard let countdown = handle?.countdown, !countdown.isPaused else { return }
    deadline = Date().addingTimeInterval(countdown.remaining(at: engine.now).timeIntervalValue)
  }

  private func finish(_ summary: String) {
    ended?.resume(returning: summary)
    ended = nil
  }

  private func clockTime(_ date: Date) -> String {
    date.formatted(Date.FormatStyle(date: .omitted, time: .standard, locale: locale))
  }

  private static func ringRows(for terminalRows: Int) -> Int {
    min(10, max(2, terminalRows - 8))
  }
}
