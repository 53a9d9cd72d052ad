import Foundation
import Synchronization

/// Strategy (a), the widget approach at its best: one repeating Foundation `Timer` per countdown on a
/// run loop, every second, in common modes, each computing the remaining time from its deadline.
///
/// At its best: the first fire is aligned to the countdown's first boundary, so every later fire
/// lands just after a boundary instead of up to a second after it. Each fire sets the value (a label's
/// text), changed or not.
public final class TimerPerCountdown: Contender {
  public let name = "(a) Timer per countdown"

  private struct Timers {
    var rows: [Timer?]
    var slots: [Timer?]
    var slotRows: [Int?]
  }

  private let workload: Workload
  private let recorder: Recorder
  private let thread = RunLoopThread(name: "(a) run loop")
  private let timers: Mutex<Timers>
  private let fires = Counter()

  /// A contender for `workload`'s rows with `slotCount` cells.
  public init(workload: Workload, recorder: Recorder, slotCount: Int) {
    self.workload = workload
    self.recorder = recorder
    timers = Mutex(
      Timers(
        rows: Array(repeating: nil, count: workload.count), slots: Array(repeating: nil, count: slotCount),
        slotRows: Array(repeating: nil, count: slotCount)))
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    timers.withLock { timers in
      timers.rows[row]?.invalidate()
      timers.rows[row] = makeTimer(for: row)
    }
  }

  public func cancel(_ row: Int) {
    timers.withLock { timers in
      timers.rows[row]?.invalidate()
      timers.rows[row] = nil
    }
  }

  public func register(_ rows: Range<Int>) -> Double? {
    // The model is the deadline array the workload already holds; nothing runs for unseen rows.
    nil
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    timers.withLock { timers in
      timers.slots[slot]?.invalidate()
      timers.slots[slot] = makeTimer(for: row)
      timers.slotRows[slot] = row
    }
  }

  public var wakeUps: Int { fires.value }

  public func stop() async {
    await thread.stop()
    Graveyard.keep(self)
  }

  /// Renders `row` now and schedules its timer on the run loop; called under the lock.
  private func makeTimer(for row: Int) -> Timer {
    let end = workload.endDate(row)
    let unit = workload.unit
    let anchor = workload.anchorDate
    let recorder = recorder
    let fires = fires
    let now = Date()
    let remaining = end.timeIntervalSince(now)
    recorder.record(
      row: row, value: Workload.displayed(remaining: remaining, unit: unit), at: now.timeIntervalSince(anchor))
    // The next boundary: when the remaining time next reaches a whole second.
    let untilBoundary = remaining - remaining.rounded(.down)
    let firstFire = now.addingTimeInterval(untilBoundary > 0 ? untilBoundary : 1)
    let timer = Timer(fire: firstFire, interval: 1, repeats: true) { timer in
      fires.increment()
      let now = Date()
      let remaining = end.timeIntervalSince(now)
      recorder.record(
        row: row, value: Workload.displayed(remaining: remaining, unit: unit), at: now.timeIntervalSince(anchor))
      if remaining <= 0 { timer.invalidate() }
    }
    thread.withRunLoop { $0.add(timer, forMode: .common) }
    return timer
  }
}
