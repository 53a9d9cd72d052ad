import ArgumentParser
import CountdownKit
import CountdownPostgres
import Foundation
import PostgresNIO
import Synchronization

/// Followers converge under load and faults: a writer edits rows at a steady rate while boards follow
/// the table, the server ends one follower's connection at regular intervals, and one follower's server
/// process is stopped (SIGSTOP: it neither answers nor closes) for a while.
struct ConvergeBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "converge",
    abstract: "N followers, 1 writer at R edits/s, a connection ended every K s, a server process stopped once.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Followers, each with its own engine, board and connection.") var followers = 3
  @Option(help: "Edits per second.") var rate = 1_000
  @Option(help: "Edits per transaction (one statement each).") var perCommit = 1
  @Option(help: "How long the writer writes, in seconds.") var seconds = 60.0
  @Option(help: "Seconds between two connections ended by the server (0: none).") var killEvery = 10.0
  @Option(help: "When to stop one follower's server process (SIGSTOP), in seconds (0: never).") var stopAt = 25.0
  @Option(help: "How long it stays stopped, in seconds.") var stopFor = 5.0
  @Option(help: "The followers' heartbeat interval, in seconds.") var heartbeat = 3.0
  @Option(help: "Rows in the table.") var rows = 10_000
  @Option(
    help: ArgumentHelp(
      "What notifications carry: rows (as the table's trigger sends them), or ids (only the transaction's id, "
        + "so that every follower reads the rows itself, as before issue 24: for comparison)."))
  var notify = "rows"
  @Option(help: "The most p50 from commit to board may be, in ms (outside fault windows).") var p50Limit = 50.0
  @Option(help: "The most p99 from commit to board may be, in ms (outside fault windows).") var p99Limit = 250.0

  func run() async throws {
    try await BenchDatabase.with("converge", url: server.url) { try await measure($0) }
  }

  /// A fault done to one follower: from `start` until that follower had caught up again.
  struct Fault: Sendable {
    var follower: Int
    var kind: String
    var start: ContinuousClock.Instant
    var end: ContinuousClock.Instant?
  }

  private func measure(_ database: BenchDatabase) async throws {
    let table = try DeadlineTable(name: "orders")
    let store = try await PostgresDeadlines.connect(to: database.location, table: table, create: true)
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'v0', now() + make_interval(secs => 60 + random() * 7200) "
        + "FROM generate_series(1, \(rows))")
    if notify == "ids" {
      // The design compared against (`--notify ids`): each writing statement sends its transaction's
      // id, nothing more, and every follower reads the rows itself.
      try await database.execute(
        """
        CREATE OR REPLACE FUNCTION orders_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            INSERT INTO orders_removed (id, removed_xid) SELECT id, pg_current_xact_id() FROM removed_rows
              ON CONFLICT (id) DO UPDATE SET removed_xid = EXCLUDED.removed_xid;
          END IF;
          PERFORM pg_notify('orders_changes', pg_current_xact_id()::text);
          RETURN NULL;
        END $$
        """)
    }
    let sent = SentTimes()
    let boards = (0..<followers).map {
      BenchFollower(index: $0, database: database, table: table, sent: sent, heartbeat: .seconds(heartbeat))
    }
    let tasks = boards.map { board in Task { try await board.run() } }
    for board in boards {
      while !board.hasLoaded { try await Task.sleep(for: .milliseconds(20)) }
    }
    say(
      "converge: \(followers) followers loaded \(rows) rows; writing \(rate) edits/s (\(perCommit) per transaction) "
        + "for \(seconds) s; heartbeat \(heartbeat) s; notifications carry " + notify)
    let faults = FaultLog()
    let start = ContinuousClock.now
    let faulter = Task { try await inject(faults: faults, boards: boards, database: database, start: start) }
    let edits = try await write(store.connection, sent: sent)
    faulter.cancel()
    _ = try? await faulter.value

    let expected = try await store.rows()
    var converged = true
    for board in boards {
      let deadline = ContinuousClock.now + .seconds(30)
      while !board.equals(expected), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
      if !board.equals(expected) {
        converged = false
        say("converge: follower \(board.index) does NOT equal the table")
      }
    }
    for task in tasks { task.cancel() }
    await store.close()
    let windows = faults.list.withLock { faults in
      faults.map { fault in
        var fault = fault
        fault.end = boards[fault.follower].catchUp(after: fault.start)
        return fault
      }
    }
    try report(boards: boards, faults: windows, edits: edits, converged: converged)
  }

  /// Ends a follower's connection every `killEvery` seconds (followers in turn), and stops one
  /// follower's server process at `stopAt` for `stopFor` seconds.
  private func inject(
    faults: FaultLog, boards: [BenchFollower], database: BenchDatabase, start: ContinuousClock.Instant
  ) async throws {
    var nextKill = killEvery > 0 ? start + .seconds(killEvery) : nil
    var nextStop = stopAt > 0 ? start + .seconds(stopAt) : nil
    var killed = 0
    while nextKill != nil || nextStop != nil {
      let next = [nextKill, nextStop].compactMap { $0 }.min() ?? start
      try await Task.sleep(until: next, tolerance: nil)
      if next == nextStop {
        nextStop = nil
        let board = boards[boards.count - 1]
        // Between two heartbeats the process is idle: not inside a transaction, holding no lock.
        var pid: Int32?
        for _ in 0..<100 where pid == nil {
          pid = try await database.integers(
            "SELECT pid FROM pg_stat_activity WHERE application_name = '\(board.name)' AND state = 'idle'"
          ).first.map { Int32(truncatingIfNeeded: $0) }
          if pid == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard let pid else {
          say("converge: \(board.name) had no idle server process to stop")
          continue
        }
        let stoppedAt = ContinuousClock.now
        kill(pid, SIGSTOP)
        faults.list.withLock { $0.append(Fault(follower: board.index, kind: "stopped", start: stoppedAt)) }
        say("converge: t=\(format(milliseconds(stoppedAt - start) / 1_000)) s, \(board.name)'s server process stopped")
        try? await Task.sleep(for: .seconds(stopFor))
        kill(pid, SIGCONT)
        let noticed = board.interruption(after: stoppedAt).map { format(milliseconds($0 - stoppedAt)) } ?? "not yet"
        say(
          "converge: \(board.name)'s server process continued after \(stopFor) s; the follower noticed after \(noticed) ms"
        )
      } else {
        nextKill = next + .seconds(killEvery)
        let board = boards[killed % boards.count]
        killed += 1
        let endedAt = ContinuousClock.now
        let ended = try await database.terminate(applicationName: board.name)
        faults.list.withLock { $0.append(Fault(follower: board.index, kind: "ended", start: endedAt)) }
        say(
          "converge: t=\(format(milliseconds(endedAt - start) / 1_000)) s, the server ended \(board.name)'s connection (\(ended))"
        )
      }
    }
  }

  /// Edits random rows at `rate` for `seconds`, `perCommit` per statement; returns how many and how long.
  private func write(_ connection: PostgresConnection, sent: SentTimes) async throws -> (count: Int, elapsed: Duration)
  {
    var random = SystemRandomNumberGenerator()
    let start = ContinuousClock.now
    var version = 0
    let total = Int(Double(rate) * seconds)
    while version < total {
      let due = start + .seconds(Double(version + perCommit) / Double(rate))
      if ContinuousClock.now < due { try await Task.sleep(until: due, tolerance: nil) }
      var ids = Set<Int64>()
      while ids.count < min(perCommit, rows) { ids.insert(Int64.random(in: 1...Int64(rows), using: &random)) }
      var binds = PostgresBindings()
      binds.append(Array(ids))
      var titles: [String] = []
      var ends: [Date] = []
      var paused: [Double] = []
      for _ in ids {
        version += 1
        titles.append("v\(version)")
        sent.record(version)
        ends.append(Date().addingTimeInterval(.random(in: 60...7_200, using: &random)))
        paused.append(Int.random(in: 0..<10, using: &random) == 0 ? Double.random(in: 60...600, using: &random) : -1)
      }
      binds.append(titles)
      binds.append(ends)
      binds.append(paused)
      try await connection.query(
        PostgresQuery(
          unsafeSQL: """
            UPDATE orders AS t SET title = u.title, ends_at = u.ends_at, paused_remaining = NULLIF(u.paused, -1)
            FROM unnest($1::int8[], $2::text[], $3::timestamptz[], $4::float8[]) AS u(id, title, ends_at, paused)
            WHERE t.id = u.id
            """, binds: binds), logger: .quiet)
    }
    return (total, ContinuousClock.now - start)
  }

  private func report(
    boards: [BenchFollower], faults: [Fault], edits: (count: Int, elapsed: Duration), converged: Bool
  ) throws {
    let achieved = Double(edits.count) / (milliseconds(edits.elapsed) / 1_000)
    say(
      "converge: \(edits.count) edits in \(format(milliseconds(edits.elapsed) / 1_000)) s = \(Int(achieved)) edits/s "
        + "(\(Int(achieved / Double(perCommit))) commits/s)")
    var outside: [Double] = []
    var inside: [Double] = []
    for board in boards {
      let windows = faults.filter { $0.follower == board.index }
      var mine: [Double] = []
      var faulted = 0
      for sample in board.samples {
        let ms = milliseconds(sample.latency)
        if windows.contains(where: { sample.applied >= $0.start && sample.sent <= ($0.end ?? .now) }) {
          inside.append(ms)
          faulted += 1
        } else {
          mine.append(ms)
        }
      }
      outside += mine
      mine.sort()
      say(
        "converge: follower \(board.index): \(board.samples.count) edits seen (\(faulted) in fault windows), outside: "
          + "p50 \(format(quantile(mine, 0.5))) ms, p99 \(format(quantile(mine, 0.99))) ms, max \(format(mine.last)) ms; "
          + "\(board.interruptions.count) interruptions, \(board.catchUps.count) catch-ups")
    }
    for fault in faults {
      let noticed = boards[fault.follower].interruption(after: fault.start).map {
        format(milliseconds($0 - fault.start))
      }
      let recovered = fault.end.map { format(milliseconds($0 - fault.start)) }
      say(
        "converge: fault \(fault.kind) on follower \(fault.follower): noticed after \(noticed ?? "-") ms, "
          + "caught up after \(recovered ?? "-") ms")
    }
    outside.sort()
    inside.sort()
    let p50 = quantile(outside, 0.5) ?? .infinity
    let p99 = quantile(outside, 0.99) ?? .infinity
    say(
      "converge: all followers outside fault windows: p50 \(format(p50)) ms, p99 \(format(p99)) ms, "
        + "max \(format(outside.last)) ms (limits \(p50Limit) / \(p99Limit)); inside: \(inside.count) edits, "
        + "p50 \(format(quantile(inside, 0.5))) ms, max \(format(inside.last)) ms")
    say("converge: every follower equals the table: \(converged ? "yes" : "NO")")
    guard converged, p50 <= p50Limit, p99 <= p99Limit else {
      throw Broken(description: "converge: a promise was broken (see above)")
    }
  }
}

/// The faults done so far.
final class FaultLog: Sendable {
  let list = Mutex<[ConvergeBench.Fault]>([])
}

/// When the writer sent each version, on the monotonic clock.
final class SentTimes: Sendable {
  private let times = Mutex<[Int: ContinuousClock.Instant]>([:])

  func record(_ version: Int) {
    let now = ContinuousClock.now
    times.withLock { $0[version] = now }
  }

  func time(of version: Int) -> ContinuousClock.Instant? { times.withLock { $0[version] } }
}
