public import Foundation

extension CountdownEngine {
  /// The snapshots of a countdown that always counts to the latest date `ends` gave.
  ///
  /// This is how a date that lives in a database or arrives from a server drives a countdown: pass
  /// the observation of that date. The source is read once, by one task; each new date retargets the
  /// countdown at once (switch-to-latest). Dates that are not finite or absurdly far away are skipped.
  ///
  /// While the source goes on, so does the sequence: a countdown that reached zero counts again when a
  /// later date arrives (a window that was closed and then extended). When the source ends or
  /// throws, the countdown goes on to the last date it gave, and the sequence then ends like
  /// ``snapshots(of:display:)``: once the countdown has finished and its display will not change
  /// again. A source that ends without giving a valid date ends the sequence at once. Cancelling the
  /// consumer cancels the countdown and stops reading the source. While it reads its source, the
  /// sequence keeps its engine, even one the app no longer holds.
  ///
  /// - Parameters:
  ///   - ends: The end dates, newest last.
  ///   - total: The full length, for progress.
  ///   - display: What to show.
  @inlinable
  public func snapshots<Ends: AsyncSequence & Sendable, Display: CountdownDisplay>(
    following ends: Ends,
    total: Duration? = nil,
    display: Display
  ) -> AsyncStream<Snapshot<Display.Value>> where Ends.Element == Date {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Snapshot<Display.Value>.self, bufferingPolicy: .bufferingNewest(1))
    let sink = StreamSink(display: display, origin: origin, continuation: continuation)
    let current = Lock<RowReference?>(nil)
    // The reader holds the engine while it reads: a later date may make the countdown count again.
    let reader = Task { [engine = self] in
      var started = false
      do {
        for try await date in ends {
          if let reference = current.withLock({ $0 }) {
            engine.retarget(reference, to: date)
          } else if !started, let end = try? engine.instant(for: date) {
            started = true
            let origin = engine.origin
            let reference = engine.addRow(Countdown(end: end, total: total), target: date, releasesWhenSettled: false) {
              state in
              let displayClass = state.displayClass(
                for: display, plan: DisplayPlan.make(for: display), origin: origin)
              return state.install(.stream(sink), in: displayClass)
            }
            current.withLock { $0 = reference }
            if Task.isCancelled { engine.cancel(reference) }
          }
        }
      } catch {
        // The source failed: keep counting to the last date it gave.
      }
      // No date will move the end any more: the sequence can end once the countdown has settled.
      if let reference = current.withLock({ $0 }) {
        engine.releaseWhenSettled(reference)
      } else if !started {
        continuation.finish()
      }
    }
    continuation.onTermination = { [weak self] _ in
      reader.cancel()
      if let reference = current.withLock({ current in
        defer { current = nil }; return current
      }) {
        self?.cancel(reference)
      }
    }
    return stream
  }

  /// Counts `reference`'s countdown to `date`; invalid dates are skipped.
  @usableFromInline
  func retarget(_ reference: RowReference, to date: Date) {
    mutate(reference) { state, row, now in
      guard let end = try? state.timeline.instant(for: date) else { return }
      let change = EngineCore.Change.retarget(end: tick(end: end), target: date.timeIntervalSinceReferenceDate)
      state.core.change(row, change, at: now, into: &state.effects)
    }
  }

  /// Releases `reference`'s countdown once it has settled.
  @usableFromInline
  func releaseWhenSettled(_ reference: RowReference) {
    mutate(reference) { state, row, now in state.core.releaseWhenSettled(row, at: now, into: &state.effects) }
  }
}
