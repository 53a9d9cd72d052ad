import ArgumentParser
import CountdownPostgres
import Foundation

/// A worker SIGKILLed while it holds leases: how soon after each lease's end another worker takes the
/// follow-up over.
struct TakeoverBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "takeover",
    abstract: "A worker holding N follow-ups is SIGKILLed; another takes them over when their leases end.")

  @OptionGroup var server: ServerOptions
  @Option(help: "Deadlines the first worker claims before it is killed.") var deadlines = 20
  @Option(help: "The workers' --lease.") var lease = "3s"
  @Option(help: "The most a takeover may come after the lease's end, in ms.") var delayLimit = 1_000.0
  @Option(help: "The countdown-pg binary (default: Examples/.build/release/countdown-pg).") var binary: String?
  @Option(help: "Where the workers' logs go (default: a temporary folder).") var logs: String?

  func run() async throws {
    try await BenchDatabase.with("takeover", url: server.url) { try await measure($0) }
  }

  private func measure(_ database: BenchDatabase) async throws {
    let folder = URL(fileURLWithPath: logs ?? NSTemporaryDirectory()).appending(
      path: "countdown-takeover-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try await PostgresDeadlines.connect(
      to: database.location, table: try DeadlineTable(name: "orders"), create: true)
    await store.close()
    let binary = binary.map { URL(fileURLWithPath: $0) } ?? ExpireBench.defaultBinary()
    // The first worker's follow-ups hang (for longer than the run), so it holds every lease when killed.
    let stuck = WorkerPool(
      binary: binary, arguments: ["expire", "--db", database.url, "--lease", lease, "--exec", "sleep 20"],
      logs: folder)
    try stuck.start(0)
    while try await database.integers(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'countdown-expire-claims'") != [1]
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    try await database.execute(
      "INSERT INTO orders (title, ends_at) SELECT 'held ' || n, now() + interval '1 s' "
        + "FROM generate_series(1, \(deadlines)) AS n")
    while try await database.integers("SELECT count(*) FROM orders_attempts") != [Int64(deadlines)] {
      try await Task.sleep(for: .milliseconds(20))
    }
    try await Task.sleep(for: .seconds(1))  // the worker extends its leases a few times
    await stuck.kill(0)
    let killedAt = try await database.integers("SELECT (EXTRACT(EPOCH FROM now()) * 1000000)::int8")[0]
    let leaseEnds = Dictionary(
      try await database.pairs("SELECT id, (EXTRACT(EPOCH FROM lease_until) * 1000000)::int8 FROM orders"),
      uniquingKeysWith: max)
    let left = leaseEnds.values.map { Double($0 - killedAt) / 1_000 }
    say(
      "takeover: worker killed holding \(deadlines) follow-ups, lease \(lease); their leases end "
        + "\(format(left.min()))–\(format(left.max())) ms later")
    let heir = WorkerPool(binary: binary, arguments: ["expire", "--db", database.url, "--lease", lease], logs: folder)
    try heir.start(1)
    let settled = ContinuousClock.now + .seconds(30)
    while try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") != [0],
      ContinuousClock.now < settled
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    await heir.stopAll()
    let delays = try await database.pairs(
      "SELECT id, (EXTRACT(EPOCH FROM claimed_at) * 1000000)::int8 FROM orders_attempts WHERE attempt = 2"
    ).compactMap { id, claimed in leaseEnds[id].map { Double(claimed - $0) / 1_000 } }.sorted()
    say(
      "takeover: \(delays.count) of \(deadlines) taken over by another worker, after the lease's end: "
        + "min \(format(delays.first)) ms, p50 \(format(quantile(delays, 0.5))) ms, max \(format(delays.last)) ms")
    guard delays.count == deadlines, (delays.first ?? -1) >= 0, (delays.last ?? .infinity) <= delayLimit else {
      throw Broken(description: "takeover: a promise was broken (see above)")
    }
  }
}
