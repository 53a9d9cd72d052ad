import ArgumentParser

/// The measurements of CountdownPostgres against a real server (`scripts/postgres-bench` starts one):
///
///   PostgresBench converge --url URL   N followers, 1 writer at R edits/s, a follower's connection ended
///                                      by the server every 10 s, one follower's server process stopped
///                                      (SIGSTOP) for 5 s: commit-to-board latency, time to notice
///   PostgresBench expire --url URL     4 `countdown-pg expire` processes, 10,000 deadlines over 60 s, a
///                                      random one SIGKILLed and restarted every 5 s (and, with
///                                      --restart-command, the server restarted once)
///   PostgresBench burst --url URL      100,000 deadlines due within one second, 4 workers
///   PostgresBench takeover --url URL   a worker SIGKILLed holding leases; another takes them over
///   PostgresBench load --url URL       1,000,000 rows loaded into a board (time, memory per row); bulk
///                                      upsert and remove of 100,000 rows
///
/// Each makes its own database on the server and drops it afterwards; each prints its figures and
/// exits with status 1 if a promise was broken.
@main
struct PostgresBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "PostgresBench",
    abstract: "Measurements of CountdownPostgres against a real server.",
    subcommands: [ConvergeBench.self, ExpireBench.self, BurstBench.self, TakeoverBench.self, LoadBench.self]
  )
}

/// Options every scenario takes.
struct ServerOptions: ParsableArguments {
  @Option(help: "The server (its database is only used to create and drop the scenario's own).")
  var url: String
}

/// A broken promise: printed, and the exit status is 1.
struct Broken: Error, CustomStringConvertible {
  var description: String
}
