import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A main actor that falls behind gets each subscriber's newest snapshot, once: not a backlog of the
/// values it missed.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct NewestValueTests {
  /// Runs `work` on another thread while the main actor is held (blocked, not suspended: nothing of the
  /// engine's reaches it meanwhile), and returns once `work` is done.
  func holdingTheMainActor(_ work: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
      work()
      done.signal()
    }.start()
    done.wait()
  }

  /// Advances `clock` by `step` and serves what became due, `times` times, as the engine's driver would.
  nonisolated static func advance(
    _ engine: CountdownEngine<ManualClock>, _ clock: ManualClock, by step: Duration, times: Int
  ) {
    for _ in 0..<times {
      clock.advance(by: step)
      engine._serveDueElsewhere()
    }
  }

  @Test func aMainActorHeldForSecondsGetsOneSnapshotPerSubscriberTheCurrentOne() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.now
    var seen: [[Duration]] = Array(repeating: [], count: 1_000)
    for k in 0..<1_000 {
      engine.add(
        Countdown(end: start.advanced(by: .seconds(60) - .milliseconds(k)), total: nil), display: .seconds
      ) { seen[k].append($0.value) }
    }
    engine._serveDue()
    #expect(seen.allSatisfy { $0.count == 1 })
    holdingTheMainActor { Self.advance(engine, clock, by: .seconds(1), times: 3) }
    // The main actor takes what waited for it.
    engine._serveDue()
    for k in 0..<1_000 {
      #expect(seen[k] == [.seconds(60), .seconds(57)], "subscriber \(k): \(seen[k])")
    }
  }

  @Test func aCompletionInTheGapStillComesRightAfterTheSnapshotThatShowsZero() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var events: [String] = []
    engine.add(
      Countdown(duration: .milliseconds(1_500), startingAt: clock.now), display: .secondsWithOvertime,
      onChange: { events.append("\($0.value.components.seconds)") }, onFinish: { events.append("finished") })
    engine._serveDue()
    #expect(events.count == 1)
    holdingTheMainActor { Self.advance(engine, clock, by: .seconds(1), times: 4) }
    engine._serveDue()
    // 2, then (held for 4 s: 1, 0, -1, -2 computed) the zero, the completion, and the newest.
    #expect(events == ["2", "0", "finished", "-2"])
  }

  @Test func aSubscriberReplacedInItsSlotWhileTheMainActorIsHeldStillGetsItsLastSnapshot() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let first = ValueBox()
    let second = ValueBox()
    engine.add(Countdown(duration: .milliseconds(2_500), startingAt: clock.now), display: .seconds) {
      first.values.append($0.value)
    }
    engine._serveDue()
    #expect(first.values.count == 1)
    holdingTheMainActor {
      // The first countdown ends and is let go; the second takes its sink slot and runs on.
      Self.advance(engine, clock, by: .seconds(1), times: 3)
      engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) { @MainActor in
        second.values.append($0.value)
      }
      Self.advance(engine, clock, by: .seconds(1), times: 2)
    }
    engine._serveDue()
    #expect(first.values == [.seconds(3), .zero])
    #expect(second.values == [.seconds(8)])
  }
}

/// Values appended on the main actor by a closure made on another thread.
@MainActor
final class ValueBox {
  var values: [Duration] = []
}
