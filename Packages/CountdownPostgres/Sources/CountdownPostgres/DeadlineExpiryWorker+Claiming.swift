import Foundation
import Logging
import Synchronization

extension DeadlineExpiryWorker {
  /// Claims rows as they finish on the board, in batches whose size follows the follow-ups' pace, and
  /// starts the follow-ups of the rows won, at most ``concurrency`` at a time.
  func claimLoop(
    _ finished: AsyncStream<Int64>, coordinator: ExpiryCoordinator, claims: ClaimConnection,
    held: HeldRows, marks: Inbox<ExpiredDeadline>, events: @escaping @Sendable (ExpiryEvent) -> Void,
    followUp: @escaping @Sendable (ExpiredDeadline) async throws -> Void
  ) async throws {
    let inbox = Inbox<Int64>()
    let completed = CompletedCount()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await id in finished { inbox.append(id) }
        inbox.finish(CancellationError())
      }
      defer { group.cancelAll() }
      var queue = ClaimQueue()
      var pace = ClaimPace(maximum: claimBatch, concurrency: concurrency)
      var running = 0
      while true {
        queue.add(queue.isEmpty ? try await inbox.takeAll() : inbox.takeAvailable())
        let ids = await coordinator.claimable(queue.take(pace.size(completed: completed.value)))
        guard !ids.isEmpty else { continue }
        let started = ContinuousClock.now
        let won: [ExpiredDeadline]
        do {
          won = try await claims.claim(ids, in: table, by: name, lease: lease)
          pace.claimed(in: ContinuousClock.now - started, limit: claims.statementTimeout)
        } catch {
          pace.failed()
          events(.interrupted(.wrapping(error, at: location, doing: "claiming rows")))
          await coordinator.claimsLost(ids)
          continue
        }
        // Each lease began after the claim was sent: one whose answer took nearly a lease to come back
        // (a server stopped between the update and the commit) may be over, and is left to the next
        // attempt of whichever worker claims the row first.
        let fresh = ContinuousClock.now - started < lease * 0.9 ? won : []
        if fresh.count < won.count {
          logger.warning("\(won.count) claims came back after nearly a lease; not run here")
        }
        let freshIDs = Set(fresh.map(\.id))
        await coordinator.claimsLost(ids.filter { !freshIDs.contains($0) })
        await coordinator.claimed(fresh.map(\.row))
        held.add(fresh)
        for expired in fresh {
          events(.claimed(expired))
          if running >= concurrency {
            try await group.next()
            running -= 1
          }
          running += 1
          group.addTask {
            if await self.followUp(expired, claims: claims, events: events, followUp) {
              marks.append(expired)
            } else {
              held.remove([expired.id])
              await coordinator.followUpsEnded([expired.id], done: false)
            }
            completed.add()
          }
        }
      }
    }
  }

  /// Runs one follow-up; whether it succeeded (a failure shortens the row's lease to ``failureDelay``).
  private func followUp(
    _ expired: ExpiredDeadline, claims: ClaimConnection, events: @escaping @Sendable (ExpiryEvent) -> Void,
    _ followUp: @escaping @Sendable (ExpiredDeadline) async throws -> Void
  ) async -> Bool {
    do {
      try await followUp(expired)
      return true
    } catch {
      try? await claims.release(expired, in: table, retryIn: failureDelay)
      events(.followUpFailed(expired, "\(error)"))
      return false
    }
  }

  /// Records finished follow-ups, all that finished meanwhile at once (in statements of at most
  /// ``claimBatch`` rows); a batch that cannot be recorded is left to run out its leases and be retried.
  func recordLoop(
    _ marks: Inbox<ExpiredDeadline>, coordinator: ExpiryCoordinator, claims: ClaimConnection, held: HeldRows,
    _ events: @escaping @Sendable (ExpiryEvent) -> Void
  ) async throws {
    while true {
      let done = try await marks.takeAll()
      for start in stride(from: 0, to: done.count, by: claimBatch) {
        let batch = Array(done[start..<min(done.count, start + claimBatch)])
        let ids = batch.map(\.id)
        do {
          try await claims.markFollowedUp(batch, in: table)
        } catch {
          if Task.isCancelled { throw CancellationError() }
          events(.interrupted(.wrapping(error, at: location, doing: "recording \(batch.count) follow-ups")))
          held.remove(ids)
          await coordinator.followUpsEnded(ids, done: false)
          continue
        }
        held.remove(ids)
        await coordinator.followUpsEnded(ids, done: true)
        for expired in batch { events(.followedUp(expired)) }
      }
    }
  }
}

/// How many follow-ups have completed, for ``ClaimPace``.
private final class CompletedCount: Sendable {
  private let count = Atomic<Int>(0)

  func add() { count.add(1, ordering: .relaxed) }

  var value: Int { count.load(ordering: .relaxed) }
}
