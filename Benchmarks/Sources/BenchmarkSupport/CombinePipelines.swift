import Foundation
import OpenCombine
import OpenCombineFoundation
import Synchronization

/// Strategy (c), the reactive approach: a pipeline per countdown in which a 10 Hz timer publisher
/// (OpenCombineFoundation's `Timer.publish` on a run loop, common modes) is combined with the end
/// date (a subject, as it may change), mapped to the displayed value and deduplicated with
/// `removeDuplicates`.
public final class CombinePipelines: Contender {
  public let name = "(c) OpenCombine 10 Hz"

  private struct Pipelines {
    var rows: [AnyCancellable?]
    var slots: [AnyCancellable?]
  }

  private let workload: Workload
  private let recorder: Recorder
  private let thread = RunLoopThread(name: "(c) run loop")
  private let pipelines: Mutex<Pipelines>
  private let fires = Counter()

  /// A contender for `workload`'s rows with `slotCount` cells.
  public init(workload: Workload, recorder: Recorder, slotCount: Int) {
    self.workload = workload
    self.recorder = recorder
    pipelines = Mutex(
      Pipelines(rows: Array(repeating: nil, count: workload.count), slots: Array(repeating: nil, count: slotCount)))
  }

  public func add(_ row: Int, isolation: isolated (any Actor)?) {
    pipelines.withLock { pipelines in
      pipelines.rows[row] = makePipeline(for: row)
    }
  }

  public func cancel(_ row: Int) {
    pipelines.withLock { pipelines in
      pipelines.rows[row]?.cancel()
      pipelines.rows[row] = nil
    }
  }

  public func register(_ rows: Range<Int>) -> Double? {
    // The model is the deadline array the workload already holds.
    nil
  }

  @MainActor
  public func bind(slot: Int, to row: Int) {
    pipelines.withLock { pipelines in
      pipelines.slots[slot]?.cancel()
      pipelines.slots[slot] = makePipeline(for: row)
    }
  }

  public var wakeUps: Int { fires.value }

  public func stop() async {
    await thread.stop()
    Graveyard.keep(self)
  }

  /// The pipeline of `row`; it renders at once (`prepend`) and then at each tick whose value changed.
  private func makePipeline(for row: Int) -> AnyCancellable {
    let end = CurrentValueSubject<Date, Never>(workload.endDate(row))
    let unit = workload.unit
    let anchor = workload.anchorDate
    let recorder = recorder
    let fires = fires
    var pipeline: AnyCancellable?
    thread.withRunLoop { runLoop in
      let ticks = Timer.publish(every: 0.1, on: runLoop, in: .common).autoconnect().prepend(Date())
      // OpenCombine 0.14 has no `combineLatest`: switching to the ticks mapped with the latest end
      // date is the same pipeline for an end that changes now and then.
      pipeline = end.map { end in
        ticks.map { now -> (value: Int64, now: Date) in
          fires.increment()
          return (Workload.displayed(remaining: end.timeIntervalSince(now), unit: unit), now)
        }
      }
      .switchToLatest()
      .removeDuplicates { $0.value == $1.value }
      .sink { recorder.record(row: row, value: $0.value, at: $0.now.timeIntervalSince(anchor)) }
    }
    guard let pipeline else { preconditionFailure("Internal inconsistency: no pipeline was made") }
    return pipeline
  }
}
