import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A countdown stored as wall-clock facts survives a relaunch: on a monotonic clock that restarted
/// from zero (a reboot) or kept going, with the wall clock moved in between or not.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct RelaunchTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  /// What happens between the store and the relaunch.
  enum Gap: CaseIterable, Sendable {
    /// The machine rebooted: the new process's monotonic clock starts again at zero, 40 minutes later.
    case reboot
    /// Only the app was relaunched: the monotonic clock kept going for 40 minutes.
    case keptGoing
    /// Kept going for 40 minutes, and the user set the wall clock forward an hour meanwhile.
    case wallClockForward
    /// Rebooted 40 minutes later with the wall clock an hour behind.
    case rebootWithWallClockBack
  }

  /// The state the countdown is stored in.
  enum Stored: CaseIterable, Sendable {
    case running, paused, finished
  }

  static let window = Duration.seconds(7_200)
  static let gap = Duration.seconds(2_400)

  private func engine(on clock: ManualClock) -> CountdownEngine<ManualClock> {
    CountdownEngine(clock: clock, wallClock: clock, tolerance: .milliseconds(100), drivesItself: false)
  }

  private func isWithinAMillisecond(_ lhs: Duration, _ rhs: Duration) -> Bool {
    lhs - rhs <= .milliseconds(1) && rhs - lhs <= .milliseconds(1)
  }

  @Test(arguments: Gap.allCases, Stored.allCases)
  func relaunch(gap: Gap, stored state: Stored) throws {
    // First launch: a two-hour window starts; the process runs for 30 minutes (5 more when finished
    // is wanted, with a window of 20 minutes), and stores the countdown.
    let first = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000.375))
    first.advance(by: .seconds(12_345))  // the machine has been up a while
    let firstEngine = engine(on: first)
    defer { firstEngine.shutdown() }
    let window = state == .finished ? Duration.seconds(1_200) : Self.window
    let startDate = first.currentDate
    let handle = firstEngine.add(Countdown(duration: window, startingAt: first.now)) {}
    first.advance(by: .seconds(1_800) + .milliseconds(250))
    if state == .paused { handle.pause() }
    let leftWhenStored = try #require(handle.countdown).remaining(at: first.now)
    let data = try JSONEncoder().encode(try #require(handle.countdown).stored(at: first.now, on: firstEngine.timeline))
    firstEngine.shutdown()

    // The relaunch.
    let clock: ManualClock
    switch gap {
    case .reboot:
      clock = ManualClock(date: first.currentDate.addingTimeInterval(Self.gap.timeInterval))
    case .keptGoing:
      clock = first
      clock.advance(by: Self.gap)
    case .wallClockForward:
      clock = first
      clock.advance(by: Self.gap)
      clock.jumpWallClock(by: .seconds(3_600))
    case .rebootWithWallClockBack:
      clock = ManualClock(date: first.currentDate.addingTimeInterval((Self.gap - .seconds(3_600)).timeInterval))
    }
    let secondEngine = engine(on: clock)
    defer { secondEngine.shutdown() }
    let stored = try JSONDecoder().decode(StoredCountdown.self, from: data)
    #expect(stored.isFinished == (state == .finished))
    let restored = stored.restored(at: clock.now, on: secondEngine.timeline)

    // The truth, by the wall clock's say: the window ends when the wall clock reads start + window.
    let wallClockLeft = Duration.seconds(
      startDate.addingTimeInterval(window.timeInterval).timeIntervalSince(clock.currentDate))
    switch state {
    case .running:
      #expect(!restored.isPaused)
      #expect(isWithinAMillisecond(restored.remaining(at: clock.now), wallClockLeft))
    case .paused:
      #expect(restored.isPaused)
      #expect(restored.remaining(at: clock.now) == leftWhenStored)
      clock.advance(by: .seconds(60))
      #expect(restored.remaining(at: clock.now) == leftWhenStored)
    case .finished:
      #expect(restored.isFinished(at: clock.now))
    }
    #expect(restored.total == window)

    // And the engine shows it: one snapshot at once, and the completion when it is due.
    let recorder = Recorder<Int, Snapshot>()
    secondEngine.add(restored, display: .seconds, onChange: recorder.onChange(0), onFinish: recorder.onFinish(0))
    secondEngine._serveDue()
    let shown = try #require(recorder.last(0))
    #expect(shown.isPaused == (state == .paused))
    #expect(shown.isFinished == (state == .finished || (state == .running && wallClockLeft <= .zero)))
    if state == .running && wallClockLeft > .zero {
      clock.advance(by: wallClockLeft + .milliseconds(1))
      secondEngine._serveDue()
      clock.advance(by: .milliseconds(200))
      secondEngine._serveDue()
      #expect(recorder.finishes[0] == 1)
    }
  }
}
