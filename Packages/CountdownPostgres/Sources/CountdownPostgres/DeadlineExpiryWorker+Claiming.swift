import CoreMetrics
import DequeModule
import Foundation
import Logging
import Synchronization

extension DeadlineExpiryWorker {
  /// What wakes the claim loop.
  enum Signal: Sendable {
    /// A row's countdown ran out on the board.
    case due(Int64)
    /// A follow-up ended (its outcome handled).
    case ended
    /// ``drain()`` was called.
    case drain
    /// The drain's grace is over.
    case graceOver
  }

  /// Claims rows as they finish on the board, in batches whose size follows the follow-ups' pace, and
  /// starts the follow-ups of the rows won, at most ``concurrency`` at a time; on ``drain()``, stops
  /// claiming, gives back the rows not started, lets the running follow-ups finish for ``drainGrace``,
  /// then cancels them, and returns once none runs.
  func claimLoop(_ finished: AsyncStream<Int64>, _ context: Context) async throws {
    let signals = Inbox<Signal>()
    let waiter = drainState.withLock { state -> Int? in
      guard !state.draining else { return nil }
      state.nextWaiter += 1
      state.waiters[state.nextWaiter] = { signals.append(.drain) }
      return state.nextWaiter
    }
    if waiter == nil { signals.append(.drain) }
    defer { if let waiter { _ = drainState.withLock { $0.waiters.removeValue(forKey: waiter) } } }
    let completed = CompletedCount()
    let draining = DrainFlag()
    try await withThrowingDiscardingTaskGroup { group in
      group.addTask {
        for await id in finished { signals.append(.due(id)) }
        // The board's feed ends when the run is cancelled: so does the loop, unless it drains (then its
        // grace's end cancelled the feed, and the loop waits for its follow-ups to end).
        if !draining.isSet { signals.finish(CancellationError()) }
      }
      var queue = ClaimQueue()
      var pace = ClaimPace(maximum: claimBatch, concurrency: concurrency)
      var waiting = Deque<ExpiredDeadline>()
      var running = 0
      while true {
        // Start what may start.
        while running < concurrency, let expired = waiting.popFirst() {
          guard let entry = context.held.entry(expired.id),
            ContinuousClock.now < entry.validUntil - giveUpMargin, entry.lost == nil
          else {
            // Its lease may be over before the follow-up could start: left to the next attempt.
            context.held.remove([expired.id])
            context.events(.followUpAbandoned(expired, "its lease ran short before it could start"))
            await context.coordinator.followUpsEnded([expired.id], recorded: false)
            continue
          }
          running += 1
          group.addTask {
            await self.followUp(expired, context, draining: draining)
            completed.add()
            signals.append(.ended)
          }
        }
        let isDraining = draining.isSet
        if isDraining && running == 0 { break }
        let mayClaim = !isDraining && waiting.isEmpty && !queue.isEmpty
        for signal in mayClaim ? signals.takeAvailable() : try await signals.takeAll() {
          switch signal {
          case .due(let id): queue.add([id])
          case .ended: running -= 1
          case .drain:
            guard draining.set() else { break }
            context.events(.draining(running: running))
            let notStarted = Array(waiting)
            waiting.removeAll()
            await giveBack(notStarted, context)
            let grace = drainGrace
            group.addTask {
              try? await Task.sleep(for: grace)
              signals.append(.graceOver)
            }
          case .graceOver:
            // Cancels the running follow-ups (and the board's feed, no longer needed).
            group.cancelAll()
          }
        }
        guard !draining.isSet, waiting.isEmpty, !queue.isEmpty else { continue }
        let ids = await context.coordinator.claimable(queue.take(pace.size(completed: completed.value)))
        guard !ids.isEmpty else { continue }
        let started = ContinuousClock.now
        metrics.claims.increment(by: Int64(ids.count))
        let result: ClaimConnection.ClaimResult
        do {
          result = try await context.claims.claim(ids, in: table, by: name, lease: lease, maxAttempts: maxAttempts)
          pace.claimed(in: ContinuousClock.now - started, limit: context.claims.statementTimeout)
        } catch {
          pace.failed()
          context.events(.interrupted(.wrapping(error, at: location, doing: "claiming rows")))
          await context.coordinator.claimsLost(ids)
          continue
        }
        await context.coordinator.refused(result.others, missing: result.missing)
        for row in result.others where row.discardedAt != nil && row.expiryAttempts > 0 {
          logger.notice("Row \(row.id) of \(table.qualifiedName) discarded: its last attempt's lease ran out")
        }
        await context.coordinator.claimed(result.won.map(\.row))
        context.held.add(result.won, sent: started, lease: lease)
        metrics.claimsWon.increment(by: Int64(result.won.count))
        for expired in result.won {
          if expired.attempt == 1 {
            metrics.expiries.increment()
            metrics.lateness.recordNanoseconds(PostgresDeadlineFollower.nanoseconds(expired.lateness))
          }
          context.events(.claimed(expired))
          waiting.append(expired)
        }
      }
      group.cancelAll()
    }
  }

  /// How a follow-up ended.
  enum Outcome: Sendable {
    case done
    case failed(String)
    case abandoned(String)
    case cancelled
  }

  /// Runs one follow-up and handles its outcome: a finished one goes to be recorded; a failed one (or
  /// one that timed out) is retried later or discarded; one whose lease could not be kept is given up;
  /// one cancelled by a drain is given back.
  private func followUp(_ expired: ExpiredDeadline, _ context: Context, draining: DrainFlag) async {
    let outcome = await race(expired, context)
    switch outcome {
    case .done:
      context.marks.append(expired)
      return
    case .failed(let problem):
      do {
        let discarded = try await context.claims.fail(
          expired, problem: problem, in: table, baseDelay: failureDelay, maxDelay: maxRetryDelay,
          maxAttempts: maxAttempts)
        switch discarded {
        case true?:
          metrics.discarded.increment()
          context.events(.discarded(expired, problem))
        case false?:
          metrics.failed.increment()
          context.events(.followUpFailed(expired, problem))
        case nil:
          context.events(
            .followUpAbandoned(expired, "failed (\(problem)), but the row was moved, deleted or taken over meanwhile"))
        }
      } catch {
        // Not recorded: the lease runs out and the next attempt comes then.
        metrics.failed.increment()
        context.events(.followUpFailed(expired, problem))
      }
    case .abandoned(let reason):
      metrics.abandoned.increment()
      metrics.leasesLost.increment()
      context.events(.followUpAbandoned(expired, reason))
    case .cancelled:
      if draining.isSet {
        await giveBack([expired], context)
      }
    }
    context.held.remove([expired.id])
    await context.coordinator.followUpsEnded([expired.id], recorded: false)
  }

  /// Runs `followUp` for `expired` against its deadlines: the timeout, and the lease (given up a sixth
  /// of a lease before it is sure to end, or once it is found gone); cancels it at the first.
  private func race(_ expired: ExpiredDeadline, _ context: Context) async -> Outcome {
    let timeout = followUpTimeout.map { ContinuousClock.now + $0 }
    let followUp = context.followUp
    return await withTaskGroup(of: Outcome?.self) { group in
      group.addTask {
        do {
          try await followUp(expired)
          return .done
        } catch {
          return Task.isCancelled ? nil : .failed("\(error)")
        }
      }
      group.addTask { await self.watch(expired.id, timeout: timeout, held: context.held) }
      var outcome: Outcome?
      if let first = await group.next() {
        outcome = first
        group.cancelAll()
      }
      // The other task ends too (the follow-up, if it honours cancellation, promptly).
      while let next = await group.next() { outcome = outcome ?? next }
      return outcome ?? .cancelled
    }
  }

  /// Waits until a follow-up must stop: its timeout (`.failed`), or its lease (`.abandoned`); nil if
  /// cancelled first.
  private func watch(_ id: Int64, timeout: ContinuousClock.Instant?, held: HeldRows) async -> Outcome? {
    let tick = min(heartbeatInterval / 2, lease / 6)
    while !Task.isCancelled {
      let now = ContinuousClock.now
      if let timeout, now >= timeout, let limit = followUpTimeout {
        return .failed("timed out after \(PostgresDeadlineFollower.seconds(limit))")
      }
      guard let entry = held.entry(id) else { return nil }
      if let lost = entry.lost { return .abandoned("given up: \(lost)") }
      let giveUp = entry.validUntil - giveUpMargin
      if now >= giveUp {
        return .abandoned(
          "given up before its lease ends: the lease could not be extended for "
            + PostgresDeadlineFollower.seconds(now - (entry.validUntil - lease)))
      }
      try? await Task.sleep(until: min(giveUp, timeout ?? giveUp, now + tick), tolerance: nil)
    }
    return nil
  }

  /// Gives `rows` back (their leases end now) and lets the plan count to them again.
  private func giveBack(_ rows: [ExpiredDeadline], _ context: Context) async {
    guard !rows.isEmpty else { return }
    do {
      try await context.claims.giveBack(rows, in: table)
    } catch {
      context.events(.interrupted(.wrapping(error, at: location, doing: "giving back \(rows.count) follow-ups")))
    }
    for expired in rows { context.events(.followUpAbandoned(expired, "given back: the worker drains")) }
    context.held.remove(rows.map(\.id))
    await context.coordinator.followUpsEnded(rows.map(\.id), recorded: false)
  }

  /// Records finished follow-ups, all that finished meanwhile at once (in statements of at most
  /// ``claimBatch`` rows); a batch that cannot be recorded is left to run out its leases and be retried.
  /// A follow-up whose row changed meanwhile (moved, deleted, taken over) is not recorded: the plan counts
  /// to the row as it is now.
  func recordLoop(_ context: Context) async throws {
    while true {
      let done = try await context.marks.takeAll()
      for start in stride(from: 0, to: done.count, by: claimBatch) {
        let batch = Array(done[start..<min(done.count, start + claimBatch)])
        let ids = batch.map(\.id)
        let recorded: Set<Int64>
        do {
          recorded = try await context.claims.markFollowedUp(batch, in: table)
        } catch {
          if Task.isCancelled { throw CancellationError() }
          context.events(.interrupted(.wrapping(error, at: location, doing: "recording \(batch.count) follow-ups")))
          context.held.remove(ids)
          await context.coordinator.followUpsEnded(ids, recorded: false)
          continue
        }
        context.held.remove(ids)
        let (kept, lost) = (ids.filter(recorded.contains), ids.filter { !recorded.contains($0) })
        await context.coordinator.followUpsEnded(kept, recorded: true)
        await context.coordinator.followUpsEnded(lost, recorded: false)
        for expired in batch {
          if recorded.contains(expired.id) {
            metrics.recorded.increment()
            context.events(.followedUp(expired))
          } else {
            metrics.abandoned.increment()
            context.events(
              .followUpAbandoned(
                expired, "finished, but not recorded: the row was moved, deleted or taken over meanwhile"))
          }
        }
      }
    }
  }
}

/// Whether a claim loop drains.
final class DrainFlag: Sendable {
  private let value = Atomic<Bool>(false)

  var isSet: Bool { value.load(ordering: .relaxed) }

  /// Sets the flag; whether it was not set before.
  func set() -> Bool { !value.exchange(true, ordering: .relaxed) }
}

/// How many follow-ups have completed, for ``ClaimPace``.
private final class CompletedCount: Sendable {
  private let count = Atomic<Int>(0)

  func add() { count.add(1, ordering: .relaxed) }

  var value: Int { count.load(ordering: .relaxed) }
}
