import Foundation

// The one path by which anything changes the engine: under the lock, the current tick, the change, and
// the flush of what it produced to the mailbox and the outbox; after the lock, waking the driver and
// delivering.

extension CountdownEngine {
  /// Runs `body` on the state under the lock with the current tick, posts what it produced, and wakes
  /// the driver if the next wake-up moved earlier. Main-actor deliveries follow in a hop.
  ///
  /// The tick is read under the lock, so that the core sees time only move forward: read before it, a
  /// caller that waited for the lock would process a countdown at an instant older than the one the
  /// driver or another caller had just processed it at (a countdown that finished would show time left
  /// again).
  @discardableResult
  func mutate<Result>(_ body: (inout EngineState<C>, Tick) -> Result) -> Result {
    let (result, needsHop) = perform(body)
    if needsHop { scheduleDrain() }
    return result
  }

  /// Like ``mutate(_:)``, but on the main actor already: delivers what is waiting for it before returning.
  @MainActor
  @discardableResult
  func mutateOnMain<Result>(_ body: (inout EngineState<C>, Tick) -> Result) -> Result {
    let (result, _) = perform(body)
    main.drain(mailbox)
    return result
  }

  private func perform<Result>(_ body: (inout EngineState<C>, Tick) -> Result) -> (Result, Bool) {
    let (result, wake, needsHop) = state.withLock { state -> (Result, DriverState<C>.Wake?, Bool) in
      let now = tick(now: clock.now)
      let result = body(&state, now)
      let needsHop = flush(&state, at: now)
      guard drivesItself, !state.isShutDown else { return (result, nil, needsHop) }
      let nextWake = state.core.nextWake()
      holdWhileScheduled(&state, isScheduled: nextWake != nil)
      return (result, state.driver.wakeIfNeeded(nextWake: nextWake.map(instant)), needsHop)
    }
    wake?.perform()
    outbox.deliver()
    return (result, needsHop)
  }

  /// Keeps the engine alive while something is scheduled, as a run loop keeps its timers: holds a
  /// reference to it while work is scheduled, none when nothing is. Without it, an engine that the app
  /// made in a function and did not keep would go away with its countdowns, and their completions
  /// would never come. With nothing scheduled (every countdown over, paused, or waiting for a date
  /// from its source) it holds nothing, so an engine the app no longer holds goes away.
  ///
  /// Called under the lock by a method of the engine (an operation, a driver step, `shutdown()`), so
  /// the caller holds the engine too: letting go of this reference never ends it under the lock.
  func holdWhileScheduled(_ state: inout EngineState<C>, isScheduled: Bool) {
    if !isScheduled {
      state.heldWhileScheduled = nil
    } else if state.heldWhileScheduled == nil {
      state.heldWhileScheduled = self
    }
  }

  /// Schedules a hop to the main actor that delivers what the mailbox holds.
  func scheduleDrain() {
    Task { @MainActor in self.main.drain(self.mailbox) }
  }

  /// Hands what the core produced to the mailbox (main-actor work) and the outbox (streams, boards'
  /// sequences), in the order it was produced; returns whether a hop to the main actor must be
  /// scheduled. Called under the lock, at the end of every operation.
  ///
  /// `continuesServe`: what is flushed continues a serve whose first part an earlier flush posted
  /// (the driver serves in chunks); otherwise it is a source of changes of its own (see ``Coalescer``).
  func flush(_ state: inout EngineState<C>, at now: Tick, continuesServe: Bool = false) -> Bool {
    // After shutdown, whatever an operation added goes at once.
    if state.isShutDown, state.core.rows.count > 0 {
      state.core.removeAll(into: &state.effects)
      for number in state.boards.indices { state.boards[number]?.removeAllRows() }
    }
    state.core.recycle()
    let live = state.isShutDown ? [] : state.core.takeLiveBatches()
    guard !state.effects.isEmpty || !state.pendingMain.isEmpty || !live.isEmpty else { return false }
    defer {
      state.effects.removeAll()
      state.pendingMain.removeAll()
    }
    let isShutDown = state.isShutDown
    var outgoing: [Outbox.Item] = []
    let needsHop = mailbox.post { box, counter in
      if !continuesServe, !state.effects.changes.isEmpty { box.sources += 1 }
      for event in state.pendingMain { box.append(event) }
      // Boards that keep every row's value: one batch of changed rows each, after the changes (a slot
      // of such a board shows the row before the batch mentions it).
      defer {
        for (owner, entries) in live {
          if let deliver = state.boards[Int(owner) - 1]?.liveChanges(entries) { box.append(.call(deliver)) }
        }
      }
      // The common case (a wake-up: changes and nothing else) hands the buffer over whole.
      if state.effects.events.isEmpty, state.effects.streamChanges.isEmpty, !isShutDown {
        box.take(&state.effects.changes, at: now)
        return
      }
      var changes = 0
      var streamChanges = 0
      func catchUp(_ changeEnd: Int, _ streamEnd: Int) {
        guard !isShutDown else { return }
        box.append(state.effects.changes[changes..<changeEnd], at: now)
        for change in state.effects.streamChanges[streamChanges..<streamEnd] {
          if let sink = state.streams[Int(change.sink)] { outgoing.append(.stream(sink, change, now)) }
        }
        (changes, streamChanges) = (changeEnd, streamEnd)
      }
      for (changeEnd, streamEnd, event) in state.effects.events {
        catchUp(changeEnd, streamEnd)
        switch event {
        case .finished(let row, let owner, let sink, let isStream):
          if owner != 0 {
            guard let board = state.boards[Int(owner) - 1], let finish = board.finished(row: Int(row)) else { break }
            outgoing.append(.call(finish.sequences))
            box.append(.call(finish.handlers))
          } else if let sink, !isStream {
            box.append(.finish(sink))
          }
        case .sinkReleased(let key, let serial, let isStream, let cancelled):
          if isStream {
            if let sink = state.removeStream(key.sink) { outgoing.append(.stream(sink, nil, now)) }
          } else {
            if cancelled { box.cancel(SubscriberKey(key, serial: serial), counter: counter) }
            box.append(.remove(key))
          }
        case .classReleased(let displayClass):
          state.forgetClass(displayClass)
          box.append(.table(displayClass, nil))
        }
      }
      catchUp(state.effects.changes.count, state.effects.streamChanges.count)
    }
    outbox.post(outgoing)
    return needsHop
  }

  // MARK: - Wall clock

  /// At a wake-up: re-anchors the timeline if the wall clock jumped by more than a second since the
  /// last anchor.
  func noticeWallClockJump(_ state: inout EngineState<C>, at now: Tick) {
    let date = wallClock.currentDate
    let timeline = state.timeline
    let expected = timeline.date(for: instant(now)).addingTimeInterval(-timeline.referenceOffset.timeInterval)
    guard abs(date.timeIntervalSince(expected)) > 1 else { return }
    reanchor(&state, date: date, at: now)
  }

  /// Re-anchors the timeline on a fresh (date, now) pair and moves the countdowns that follow dates.
  func reanchor(_ state: inout EngineState<C>, date: Date, at now: Tick) {
    guard let moved = try? state.timeline.reanchored(date: date, instant: instant(now)) else { return }
    state.timeline = moved
    retargetDates(&state, at: now)
  }

  /// Re-converts the end of every running countdown that follows a date.
  func retargetDates(_ state: inout EngineState<C>, at now: Tick) {
    let timeline = state.timeline
    state.core.retargetDates(at: now, into: &state.effects) { date in
      (try? timeline.instant(for: Date(timeIntervalSinceReferenceDate: date))).map { tick(end: $0) }
    }
  }
}
