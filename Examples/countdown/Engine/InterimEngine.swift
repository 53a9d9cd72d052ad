// TEMPORARY: a stand-in for CountdownKit's `CountdownEngine` with the same call shape, so the command
// runs before the engine lands on main. Delete this file when switching to `CountdownEngine`.
import CountdownCore
import Foundation

/// Drives countdowns on the main actor: one task per countdown, sleeping until its display's next change.
@MainActor
final class InterimEngine {
  typealias Instant = ContinuousClock.Instant

  let clock = ContinuousClock()

  /// The engine's current instant.
  var now: Instant { clock.now }

  /// The monotonic instant matching `date` on the wall clock now.
  func instant(for date: Date) -> Instant {
    now.advanced(by: .nanoseconds(Int64((date.timeIntervalSinceNow * 1e9).rounded())))
  }

  /// Starts delivering snapshots of `countdown` to `onChange`, the first at once.
  func add<D: CountdownDisplay>(
    _ countdown: Countdown<Instant>,
    display: D,
    onChange: @escaping @MainActor (CountdownSnapshot<D.Value, Instant>) -> Void,
    onFinish: (@MainActor () -> Void)? = nil
  ) -> InterimHandle {
    let handle = InterimHandle(countdown: countdown)
    var last: D.Value?
    var finished = countdown.isFinished(at: now)
    handle.body = { [clock] handle in
      while !Task.isCancelled, let countdown = handle.countdown {
        let now = clock.now
        let snapshot = countdown.snapshot(at: now, display: display)
        if snapshot.value != last {
          last = snapshot.value
          onChange(snapshot)
        }
        if snapshot.isFinished != finished {
          finished = snapshot.isFinished
          if finished { onFinish?() }
        }
        guard let end = countdown.end, let next = display.nextChange(after: snapshot.remaining) else { return }
        do { try await clock.sleep(until: end.advanced(by: .zero - next)) } catch { return }
      }
    }
    handle.restart()
    return handle
  }
}

/// Controls one countdown of an ``InterimEngine``.
@MainActor
final class InterimHandle {
  private(set) var countdown: Countdown<ContinuousClock.Instant>?
  fileprivate var body: (@MainActor (InterimHandle) async -> Void)?
  private var task: Task<Void, Never>?
  private let clock = ContinuousClock()

  fileprivate init(countdown: Countdown<ContinuousClock.Instant>) {
    self.countdown = countdown
  }

  fileprivate func restart() {
    task?.cancel()
    guard let body else { return }
    task = Task { @MainActor in await body(self) }
  }

  func pause() { update { $0.paused(at: clock.now) } }
  func resume() { update { $0.resumed(at: clock.now) } }
  func extend(by amount: Duration) { update { $0.extended(by: amount) } }

  func cancel() {
    countdown = nil
    task?.cancel()
  }

  private func update(_ change: (Countdown<ContinuousClock.Instant>) -> Countdown<ContinuousClock.Instant>) {
    guard let countdown else { return }
    self.countdown = change(countdown)
    restart()
  }
}
