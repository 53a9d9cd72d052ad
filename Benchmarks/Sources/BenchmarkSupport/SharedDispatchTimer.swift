import Dispatch
import Foundation
import Synchronization

/// Strategy (b), the list-handler approach: one repeating 1 Hz `DispatchSourceTimer` on the main
/// queue that walks every bound row on each tick and recomputes its value (a cell's text).
public final class SharedDispatchTimer: Contender {
  public let name = "(b) shared 1 Hz sweep"

  private struct Rows {
    /// The bound rows, in no order; `position[row]` is a row's index here, or -1.
    var bound: [Int] = []
    var position: [Int32]
    /// The row each cell shows.
    var slots: [Int?]
  }

  private let workload: Workload
  private let recorder: Recorder
  private let rows: Mutex<Rows>
  private let ticks = Counter()
  private let timer = Mutex<(any DispatchSourceTimer)?>(nil)

  /// A contender for `workload`'s rows with `slotCount` cells.
  public init(workload: Workload, recorder: Recorder, slotCount: Int) {
    self.workload = workload
    self.recorder = recorder
    rows = Mutex(
      Rows(position: Array(repeating: -1, count: workload.count), slots: Array(repeating: nil, count: slotCount)))
    timer.withLock { timer in
      let source = DispatchSource.makeTimerSource(queue: .main)
      source.schedule(deadline: .now() + 1, repeating: 1)
      source.setEventHandler { [weak self] in self?.tick() }
      source.resume()
      timer = source
    }
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    rows.withLock { rows in
      guard rows.position[row] < 0 else { return }
      rows.position[row] = Int32(rows.bound.count)
      rows.bound.append(row)
      render(row, at: Date())
    }
  }

  public func cancel(_ row: Int) {
    rows.withLock { rows in
      let index = Int(rows.position[row])
      guard index >= 0 else { return }
      let moved = rows.bound.removeLast()
      if moved != row {
        rows.bound[index] = moved
        rows.position[moved] = Int32(index)
      }
      rows.position[row] = -1
    }
  }

  public func register(_ rows: Range<Int>) -> Double? {
    // The model is the deadline array the workload already holds.
    nil
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    rows.withLock { rows in
      rows.slots[slot] = row
      render(row, at: Date())
    }
  }

  public var wakeUps: Int { ticks.value }

  public func stop() async {
    timer.withLock { timer in
      timer?.cancel()
      timer = nil
    }
  }

  private func tick() {
    ticks.increment()
    let now = Date()
    rows.withLock { rows in
      for row in rows.bound { render(row, at: now) }
      for case let row? in rows.slots { render(row, at: now) }
    }
  }

  private func render(_ row: Int, at now: Date) {
    let remaining = workload.endDate(row).timeIntervalSince(now)
    recorder.record(row: row, value: workload.displayed(remaining: remaining), at: workload.seconds(at: now))
  }
}
