import ArgumentParser

/// `countdown expire`: one worker of a fleet that expires each order exactly once when its window closes.
struct ExpireCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "expire",
    abstract: "Expire each order exactly once when its window closes, with any number of workers (PostgreSQL).",
    discussion: """
      Follows the orders table at --db (countdown board init --db … creates it) and sleeps until the \
      next window closes: no polling. When one does, it marks the order expired in one statement that \
      only one worker of the fleet can win, never before the server's clock reaches the deadline, and \
      runs --exec for it. A worker killed before its --exec finished leaves the order to another worker \
      once --lease runs out: each order expires once, and its follow-up runs at least once. Paused \
      orders wait; a moved window expires at its new end.

      --exec runs with /bin/sh -c, with COUNTDOWN_ID, COUNTDOWN_TITLE, COUNTDOWN_ENDS_AT and \
      COUNTDOWN_EXPIRED_AT (ISO 8601, UTC) and COUNTDOWN_ATTEMPT (1, or more for a retry) in its \
      environment (and not PGPASSWORD), in a process group of its own; an exit status other than 0 is \
      retried after 10 seconds, then 20, 40, … up to an hour; after 10 attempts the order is discarded \
      (discarded_at) until an operator retries it. A follow-up still running after --exec-timeout is \
      ended with what it started (SIGTERM, then SIGKILL 2 s later) and counts as failed; one whose lease cannot \
      be extended (the server is unreachable) is cancelled before the lease ends, so that two attempts \
      never run at once. A server that stops answering is noticed within 3 seconds; the worker \
      reconnects and goes on. SIGTERM or SIGINT drains the worker: no more claims, running follow-ups \
      may finish for --grace, the rest are given back to other workers, and the command exits with \
      status 0 (a second signal exits at once, with 128 + its number). Start as many workers as you \
      like, on as many machines:

        countdown expire --db postgres://app@db.internal/shop --exec './close-order "$COUNTDOWN_ID"'
      """
  )

  @Option(
    help: ArgumentHelp(
      "The PostgreSQL database: postgres://user@host:5432/database; what it leaves out comes from PGHOST, "
        + "PGUSER, …, and the password from PGPASSWORD or ~/.pgpass, as for psql.", valueName: "url"))
  var db: String

  @Option(help: ArgumentHelp("A shell command to run for each expired order.", valueName: "command"))
  var exec: String?

  @Option(help: "How long a follow-up may go without its worker before another worker takes it over: 30s, 5m.")
  var lease = "60s"

  @Option(help: ArgumentHelp("This worker's name in the attempt log (default: host:pid).", valueName: "name"))
  var worker: String?

  @Option(help: "How many follow-ups run at once (a whole number).")
  var concurrency: WholeNumber = 16

  @Option(
    help: ArgumentHelp(
      "How long --exec may run before it and what it started are ended, a failed attempt: 5m, 30s, or none.",
      valueName: "duration"))
  var execTimeout = "5m"

  @Option(help: "How long running follow-ups may finish after SIGTERM or SIGINT before they are given back: 30s.")
  var grace = "30s"

  @Option(
    help: ArgumentHelp(
      "Write the worker's metrics in Prometheus's text format to this file every 10 s (for node_exporter's "
        + "textfile collector).", valueName: "path"))
  var metricsFile: String?

  func validate() throws {
    guard OrderSources.isServer(db) else {
      throw ValidationError("--db must be a postgres:// URL: expiry workers coordinate through PostgreSQL.")
    }
    guard case .duration(let duration) = try? TimeSpec(parsing: lease).form, duration >= .seconds(1) else {
      throw ValidationError("--lease must be a duration of at least a second, e.g. 30s or 5m.")
    }
    guard (1...1_000).contains(concurrency.value) else { throw ValidationError("--concurrency must be in 1...1000.") }
    guard execTimeout == "none" || Self.duration(execTimeout).map({ $0 > .zero }) == true else {
      throw ValidationError("--exec-timeout must be a duration, e.g. 5m or 30s, or none.")
    }
    guard Self.duration(grace) != nil else { throw ValidationError("--grace must be a duration, e.g. 30s.") }
  }

  /// `text` as a duration (`30s`, `5m`), or nil.
  static func duration(_ text: String) -> Duration? {
    guard case .duration(let duration) = try? TimeSpec(parsing: text).form, duration >= .zero else { return nil }
    return duration
  }

  func run() async throws {
    guard case .duration(let duration) = try TimeSpec(parsing: lease).form else { return }
    try await ServerSupport.current().expire(
      db: db, exec: exec, lease: duration, worker: worker, concurrency: Int(concurrency.value),
      timeout: execTimeout == "none" ? nil : Self.duration(execTimeout), grace: Self.duration(grace) ?? .seconds(30),
      metricsFile: metricsFile)
  }
}
