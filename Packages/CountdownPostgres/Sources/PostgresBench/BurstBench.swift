import ArgumentParser
import CountdownPostgres
import Foundation

/// A burst: many deadlines due within the same second, shared by `countdown-pg expire` processes.
struct BurstBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "burst",
    abstract:
      "D deadlines due within one second, W countdown-pg expire workers: each claimed once, none early, how fast.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Worker processes.") var workers = 4
  @Option(help: "Deadlines, all due within the same second.") var deadlines = 100_000
  @Option(help: "The workers' --lease.") var lease = "30s"
  @Option(help: "Seconds between writing the deadlines and the second they are due in.") var lead = 10
  @Option(help: "The most the last expiry may come after the due second began, in seconds.") var secondsLimit = 10.0
  @Option(help: "The countdown-pg binary (default: Examples/.build/release/countdown-pg).") var binary: String?
  @Option(help: "Where the workers' logs go (default: a temporary folder).") var logs: String?

  func run() async throws {
    try await BenchDatabase.with("burst", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let folder = URL(fileURLWithPath: logs ?? NSTemporaryDirectory()).appending(
      path: "countdown-burst-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try await PostgresDeadlines.connect(
      to: database.location, table: try DeadlineTable(name: "orders"), create: true)
    await store.close()
    let pool = WorkerPool(
      binary: binary.map { URL(fileURLWithPath: $0) } ?? ExpireBench.defaultBinary(),
      arguments: ["expire", "--db", database.url, "--lease", lease], logs: folder)
    for index in 0..<workers { try pool.start(index) }
    // A worker is following the table once its claims connection shows up.
    while try await database.integers(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'countdown-expire-claims'") != [Int64(workers)]
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'burst ' || n, date_trunc('second', now()) + interval '\(lead) s' "
        + "+ random() * interval '0.999 s' FROM generate_series(1, \(deadlines)) AS n")
    say(
      "burst: \(workers) workers, \(deadlines) deadlines due within one second, \(lead) s from now; logs in \(folder.path)"
    )
    let settled = ContinuousClock.now + .seconds(180)
    while try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") != [0],
      ContinuousClock.now < settled
    {
      try await Task.sleep(for: .milliseconds(250))
    }
    await pool.stopAll()
    try await report(database)
  }

  private func report(_ database: BenchDatabase) async throws {
    func one(_ sql: String) async throws -> Int64 { try await database.integers(sql).first ?? -1 }
    let expired = try await one("SELECT count(*) FROM orders WHERE expired_at IS NOT NULL")
    let followedUp = try await one("SELECT count(*) FROM orders WHERE followed_up_at IS NOT NULL")
    let attempts = try await one("SELECT count(*) FROM orders_attempts")
    let twice = try await one(
      "SELECT count(*) FROM (SELECT id FROM orders_attempts GROUP BY id HAVING count(*) > 1) AS t")
    let early = try await one("SELECT count(*) FROM orders WHERE expired_at < ends_at")
    let last = try await one(
      "SELECT (EXTRACT(EPOCH FROM max(expired_at) - date_trunc('second', min(ends_at))) * 1000)::int8 FROM orders")
    let span = try await one("SELECT (EXTRACT(EPOCH FROM max(expired_at) - min(ends_at)) * 1000)::int8 FROM orders")
    let perSecond = try await database.integers(
      "SELECT count(*) FROM orders GROUP BY floor(EXTRACT(EPOCH FROM expired_at - date_trunc('second', ends_at))) "
        + "ORDER BY floor(EXTRACT(EPOCH FROM expired_at - date_trunc('second', ends_at)))")
    let shares = try await database.integers("SELECT count(*) FROM orders_attempts GROUP BY worker ORDER BY 1 DESC")
    let lateness = try await database.integers(
      "SELECT (EXTRACT(EPOCH FROM expired_at - ends_at) * 1000000)::int8 FROM orders ORDER BY 1"
    ).map { Double($0) / 1_000 }
    say("burst: deadlines \(deadlines), expired \(expired), followed up \(followedUp), early \(early)")
    say("burst: claims \(attempts) (rows claimed more than once: \(twice)); per worker \(shares)")
    say(
      "burst: the last expired \(format(Double(last))) ms after the due second began (\(format(Double(span))) ms after "
        + "the first deadline: \(span > 0 ? Int(Double(deadlines) / (Double(span) / 1_000)) : 0) per second); "
        + "expired per second from the due second: \(perSecond)")
    say(
      "burst: lateness p50 \(format(quantile(lateness, 0.5))) ms, p99 \(format(quantile(lateness, 0.99))) ms, "
        + "max \(format(lateness.last)) ms")
    let overrun = try await ExpireBench.leaseOverruns(database)
    guard expired == deadlines, followedUp == deadlines, attempts == deadlines, twice == 0, early == 0,
      Double(last) <= secondsLimit * 1_000, overrun ?? 0 == 0
    else {
      throw Broken(description: "burst: a promise was broken (see above)")
    }
    say("burst: every deadline claimed once, none early, the last within \(secondsLimit) s of the due second")
  }
}
