import CountdownKit
import CountdownPostgres
import Foundation
import Synchronization

/// A board that follows the table, as on another machine: its own engine, board and connection. It
/// measures, for each edit it sees first, the time from the writer sending it to the board holding it,
/// and records when its connection was lost and when it had caught up again.
final class BenchFollower: Sendable {
  /// An edit seen: when the writer sent it, when the board held it.
  struct Sample {
    var sent: ContinuousClock.Instant
    var applied: ContinuousClock.Instant
    var latency: Duration { applied - sent }
  }

  let index: Int
  let engine = CountdownEngine()
  let board: CountdownBoard<Int64, RoundedDisplay, ContinuousClock>
  let name: String
  private let follower: PostgresDeadlineFollower
  private let sent: SentTimes
  private struct State {
    var samples: [Sample] = []
    var seen = Set<Int>()
    var hasLoaded = false
    var catchUps: [ContinuousClock.Instant] = []
    var interruptions: [ContinuousClock.Instant] = []
  }
  private let state = Mutex(State())

  init(index: Int, database: BenchDatabase, table: DeadlineTable, sent: SentTimes, heartbeat: Duration) {
    self.index = index
    self.sent = sent
    name = "converge-\(index)"
    board = engine.board(of: Int64.self, display: .seconds)
    follower = PostgresDeadlineFollower(
      location: database.location, table: table, heartbeatInterval: heartbeat, applicationName: name)
  }

  deinit { engine.shutdown() }

  func run() async throws {
    try await follower.run { change in
      board.apply(change)
      let now = ContinuousClock.now
      state.withLock { state in
        switch change {
        case .upserted(let rows):
          for row in rows {
            guard row.title.hasPrefix("v"), let version = Int(row.title.dropFirst()), version > 0,
              state.seen.insert(version).inserted, let sentAt = sent.time(of: version)
            else { continue }
            state.samples.append(Sample(sent: sentAt, applied: now))
          }
        case .caughtUp(let isFirstLoad, _):
          if isFirstLoad { state.hasLoaded = true } else { state.catchUps.append(now) }
        case .interrupted:
          state.interruptions.append(now)
        case .removed, .reloading:
          break
        }
      }
    }
  }

  var hasLoaded: Bool { state.withLock { $0.hasLoaded } }
  var samples: [Sample] { state.withLock { $0.samples } }
  var interruptions: [ContinuousClock.Instant] { state.withLock { $0.interruptions } }
  var catchUps: [ContinuousClock.Instant] { state.withLock { $0.catchUps } }

  /// The first interruption reported after `instant`.
  func interruption(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    interruptions.first { $0 >= instant }
  }

  /// The first catch-up after `instant`.
  func catchUp(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    catchUps.first { $0 >= instant }
  }

  /// Whether the board holds exactly the table's rows: running rows counting to their date (within a
  /// millisecond), paused rows paused with their time left.
  func equals(_ rows: [DeadlineRow]) -> Bool {
    let timeline = engine.timeline
    let now = engine.now
    var expected = 0
    for row in rows {
      switch row.deadline {
      case .success(.until(let end)):
        expected += 1
        guard let countdown = board.countdown(for: row.id), let instant = try? timeline.instant(for: end),
          let boardEnd = countdown.end, abs(milliseconds(boardEnd - instant)) <= 1
        else { return false }
      case .success(.paused(let remaining)):
        expected += 1
        guard let countdown = board.countdown(for: row.id), countdown.isPaused,
          abs(milliseconds(countdown.remaining(at: now) - remaining)) <= 1
        else { return false }
      case .success(.after), .failure:
        guard board.countdown(for: row.id) == nil else { return false }
      }
    }
    return board.count == expected
  }
}
