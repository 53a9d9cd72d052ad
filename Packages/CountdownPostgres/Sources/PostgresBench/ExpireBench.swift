import ArgumentParser
import CountdownPostgres
import Foundation

/// Exactly-once expiry under SIGKILL: `countdown-pg expire` processes share deadlines while one of them,
/// picked at random, is killed with SIGKILL and started again at a steady interval; and, with
/// `--restart-command`, the server is restarted once in the middle of it.
struct ExpireBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "expire",
    abstract: "W expiry workers, D deadlines over S seconds, a random worker SIGKILLed and restarted every K seconds.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Worker processes.") var workers = 4
  @Option(help: "Deadlines, spread evenly at random over --seconds.") var deadlines = 10_000
  @Option(help: "Seconds the deadlines are spread over (they start 5 s after the workers).") var seconds = 60.0
  @Option(help: "Seconds between two kills.") var killEvery = 5.0
  @Option(help: "The workers' --lease: how long before a killed worker's follow-ups are taken over.") var lease = "3s"
  @Option(help: "The most the p99 of lateness may be, in ms.") var p99Limit = 1_000.0
  @Option(help: "A command that restarts the server (scripts/postgres-dev restart), run once during the run.")
  var restartCommand: String?
  @Option(help: "When to restart the server, in seconds after the workers start (default: half of --seconds).")
  var restartAt: Double?
  @Option(help: "The countdown-pg binary (default: Examples/.build/release/countdown-pg).") var binary: String?
  @Option(help: "Where the workers' logs and the follow-up record go (default: a temporary folder).") var logs: String?

  func run() async throws {
    try await BenchDatabase.with("expire", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let folder = URL(fileURLWithPath: logs ?? NSTemporaryDirectory()).appending(
      path: "countdown-expire-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let record = folder.appending(path: "followups.txt")
    let store = try await PostgresDeadlines.connect(
      to: database.location, table: try DeadlineTable(name: "orders"), create: true)
    await store.close()
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'deadline ' || n, now() + make_interval(secs => 5 + random() * \(seconds)) "
        + "FROM generate_series(1, \(deadlines)) AS n")
    let pool = WorkerPool(
      binary: binary.map { URL(fileURLWithPath: $0) } ?? Self.defaultBinary(),
      arguments: [
        "expire", "--db", database.url, "--lease", lease, "--exec",
        "printf '%s %s\\n' \"$COUNTDOWN_ID\" \"$COUNTDOWN_ATTEMPT\" >> '\(record.path)'",
      ], logs: folder)
    for index in 0..<workers { try pool.start(index) }
    say(
      "expire: \(workers) workers, \(deadlines) deadlines over \(seconds) s, kill -9 every \(killEvery) s; logs in \(folder.path)"
    )

    let start = ContinuousClock.now
    var kills = 0
    let restart = restartCommand.map { command in
      Task {
        try await Task.sleep(for: .seconds(restartAt ?? seconds / 2))
        let restarted = ContinuousClock.now
        let status = try await shell(command)
        say(
          "expire: t=\(format(milliseconds(restarted - start) / 1_000)) s, the server was restarted "
            + "(\(command): exit status \(status), \(format(milliseconds(ContinuousClock.now - restarted))) ms)")
        return status
      }
    }
    while ContinuousClock.now - start < .seconds(seconds + 5) {
      try await Task.sleep(for: .seconds(killEvery))
      let victim = Int.random(in: 0..<workers)
      await pool.kill(victim)
      kills += 1
      try pool.start(victim)
    }
    say("expire: \(kills) workers killed and restarted; waiting for every follow-up")
    if let restart, try await restart.value != 0 { throw Broken(description: "expire: the server did not restart") }
    let settled = ContinuousClock.now + .seconds(60)
    while try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") != [0],
      ContinuousClock.now < settled
    {
      try await Task.sleep(for: .milliseconds(250))
    }
    await pool.stopAll()
    try await report(database, record: record, kills: kills)
  }

  private func report(_ database: BenchDatabase, record: URL, kills: Int) async throws {
    let expired = try await database.integers("SELECT count(*) FROM orders WHERE expired_at IS NOT NULL")[0]
    let expiredTwice = try await database.integers(
      "SELECT count(*) FROM (SELECT id FROM orders_attempts WHERE attempt = 1 GROUP BY id HAVING count(*) > 1) AS t")[0]
    let early = try await database.integers("SELECT count(*) FROM orders WHERE expired_at < ends_at")[0]
    let lateness = try await database.integers(
      "SELECT (EXTRACT(EPOCH FROM expired_at - ends_at) * 1000000)::int8 FROM orders WHERE expired_at IS NOT NULL ORDER BY 1"
    ).map { Double($0) / 1_000 }
    let retried = try await database.integers("SELECT count(*) FROM orders WHERE expiry_attempts > 1")[0]
    let followedUp = try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL")[0]
    let lines = (try? String(contentsOf: record, encoding: .utf8))?.split(separator: "\n") ?? []
    var runs: [Int64: Int] = [:]
    for line in lines {
      guard let id = line.split(separator: " ").first.flatMap({ Int64($0) }) else { continue }
      runs[id, default: 0] += 1
    }
    let ran = Int64(runs.count)
    let ranTwice = runs.values.filter { $0 > 1 }.count
    say("expire: deadlines \(deadlines), expired \(expired), expired more than once \(expiredTwice), early \(early)")
    let overrun = try await Self.leaseOverruns(database)
    say(
      "expire: lateness p50 \(format(quantile(lateness, 0.5))) ms, p99 \(format(quantile(lateness, 0.99))) ms, "
        + "max \(format(lateness.last)) ms (limit p99 \(p99Limit))")
    say(
      "expire: follow-ups run for \(ran) deadlines (\(lines.count) runs; \(ranTwice) ran more than once, after a kill), "
        + "recorded done for \(followedUp); \(retried) deadlines were taken over from a killed worker")
    let p99 = quantile(lateness, 0.99) ?? .infinity
    guard expired == deadlines, expiredTwice == 0, early == 0, ran == deadlines, followedUp == deadlines,
      p99 <= p99Limit, overrun ?? 0 == 0
    else {
      throw Broken(description: "expire: a promise was broken (see above)")
    }
    say("expire: every deadline expired exactly once, none early, every follow-up ran at least once")
  }

  /// How many claims committed with their lease already over (from commit timestamps; nil when the
  /// server does not track them), printed.
  static func leaseOverruns(_ database: BenchDatabase) async throws -> Int64? {
    guard try await database.integers("SELECT (current_setting('track_commit_timestamp') = 'on')::int") == [1] else {
      say("expire: the server does not track commit timestamps: claims not checked against their commits")
      return nil
    }
    let overrun = try await database.integers(
      "SELECT count(*) FROM orders_attempts WHERE lease_until <= pg_xact_commit_timestamp(xmin)")[0]
    let margin = try await database.integers(
      "SELECT COALESCE((EXTRACT(EPOCH FROM min(lease_until - pg_xact_commit_timestamp(xmin))) * 1000)::int8, 0) "
        + "FROM orders_attempts")[0]
    say(
      "expire: claims committed with their lease already over: \(overrun) (least lease left at a commit: \(margin) ms)")
    return overrun
  }

  /// `countdown-pg` of Examples/Package.swift's release build, in the repository this was built from.
  static func defaultBinary() -> URL {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { repository.deleteLastPathComponent() }
    return repository.appending(path: "Examples/.build/release/countdown-pg")
  }
}
