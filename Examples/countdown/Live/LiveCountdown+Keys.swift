import CountdownKit
import Foundation

extension LiveCountdown {
  /// Handles the keys typed: space/p pause, +/- a minute, l lap, r reset, q quit; in the finale any
  /// key quits. The terminal's answer to the synchronized-output query also arrives here.
  func press(_ keys: [Key]) {
    for key in keys {
      if case .modeReport(2026, let value) = key {
        writer.synchronizedOutput = value == 1 || value == 2
        continue
      }
      if isInFinale {
        finish(["\(plan.items[index].title ?? "countdown"): time's up"], reachedZero: true)
        return
      }
      guard let handle, let countdown = handle.countdown, let setup else { continue }
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
      case .character("l") where setup.countsUp:
        laps.record(at: elapsed(countdown))
      case .character("r") where setup.countsUp:
        // Back to the start: zero for a stopwatch, the whole total when counting up to a time.
        if countdown.isPaused { handle.resume() }
        handle.retarget(to: engine.now.advanced(by: countdown.total ?? .zero))
        target = nil
        laps.removeAll()
      case .character("q"), .character("Q"), .escape:
        let left = latest?.value.text ?? ""
        // A stopwatch ends when the user stops it; a countdown (with --overtime too) only at zero.
        let isStopwatch = setup.countdown.total == nil
        let pastZero = index == plan.items.count - 1 && countdown.remaining(at: engine.now) <= .zero
        finish(
          ["\(plan.items[index].title ?? "countdown"): stopped at \(left)"] + laps.lines,
          reachedZero: isStopwatch || pastZero)
        return
      default:
        continue
      }
    }
    updateDeadline()
    refresh()
  }

  /// The time counted up so far: since the start of a stopwatch, or of a countdown counted up.
  private func elapsed(_ countdown: Countdown<EngineInstant>) -> Duration {
    let remaining = countdown.remaining(at: engine.now)
    return (countdown.total ?? .zero) - remaining
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
}
