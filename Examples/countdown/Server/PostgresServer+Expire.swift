import CountdownCommandLine
import CountdownPostgres
import Foundation
import Spawn

extension PostgresServer {
  func expire(
    db: String, exec: String?, lease: Duration, worker: String?, concurrency: Int, timeout: Duration?,
    grace: Duration, metricsFile: String?
  ) async throws {
    let location = try Self.located(db)
    let exporter = metricsFile.map { MetricsExport.start(writingTo: $0) }
    defer { exporter?.cancel() }
    let worker = DeadlineExpiryWorker(
      location: location, table: try DeadlineTable(name: Self.tableName),
      name: worker ?? DeadlineExpiryWorker.defaultName(), lease: lease, followUpTimeout: timeout,
      concurrency: concurrency, drainGrace: grace)
    Self.say("expire: worker \(TerminalText.sanitized(worker.name)) on \(location)")
    let signals = ExpireSignals { signalNumber in
      Self.say("expire: signal \(signalNumber): draining (a second one stops at once)")
      worker.drain()
    }
    defer { withExtendedLifetime(signals) {} }
    try await worker.run(events: Self.report) { expired in
      guard let exec else { return }
      try await FollowUpProcess.run(exec, for: expired)
    }
  }

  /// Prints what a worker reports, one line each.
  @Sendable private static func report(_ event: ExpiryEvent) {
    switch event {
    case .ready(let pending):
      say("expire: following the orders; \(pending) waiting to expire or to be followed up")
    case .claimed(let expired):
      let what = "#\(expired.id) \(TerminalText.sanitized(expired.row.title))"
      if expired.attempt == 1 {
        say("expired \(what), \(milliseconds(expired.lateness)) late")
      } else {
        say("retrying the follow-up of \(what) (attempt \(expired.attempt): the last worker did not finish it)")
      }
    case .followedUp(let expired):
      say("followed up #\(expired.id)")
    case .followUpFailed(let expired, let problem):
      say("the follow-up of #\(expired.id) failed (\(TerminalText.sanitized(problem))); it will be retried")
    case .discarded(let expired, let problem):
      say(
        "the follow-up of #\(expired.id) failed on its last attempt (\(TerminalText.sanitized(problem))); "
          + "discarded until an operator retries it")
    case .followUpAbandoned(let expired, let reason):
      say("gave up the follow-up of #\(expired.id): \(TerminalText.sanitized(reason))")
    case .found(let ids):
      say("expire: the sweep found \(ids.count) order(s) no notification announced (written without triggers?)")
    case .draining(let running):
      say("expire: draining: no more claims; \(running) follow-up(s) may finish")
    case .interrupted(let error):
      say("expire: \(TerminalText.sanitized(error.description)); reconnecting")
    case .clockSynchronized(let offset, let uncertainty):
      say(
        "expire: the server's clock is \(milliseconds(offset)) from this machine's (± \(milliseconds(uncertainty)))")
    }
  }

  /// "12.345 ms", "-3.000 ms": written out directly, not with Foundation's duration formatting, which
  /// is costly at the rate a worker prints in a burst (a line per row).
  private static func milliseconds(_ duration: Duration) -> String {
    let sign = duration < .zero ? "-" : ""
    let (seconds, attoseconds) = (duration < .zero ? .zero - duration : duration).components
    let microseconds = attoseconds / 1_000_000_000_000
    let fraction = String(microseconds % 1_000)
    return "\(sign)\(seconds * 1_000 + microseconds / 1_000)."
      + "\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
  }

  /// Writes a line to standard output at once (no buffer to lose if the worker is killed).
  private static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

/// A follow-up command: `/bin/sh -c` with the order's facts in its environment (and not the
/// database's password), in a process group of its own that ends with the worker.
enum FollowUpProcess {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `command` for `expired`; throws when it fails. Cancelling the calling task (the worker's
  /// follow-up timeout, a lease it cannot keep, a drain's end) ends the command's whole group:
  /// SIGTERM, then SIGKILL 2 s later.
  static func run(_ command: String, for expired: ExpiredDeadline) async throws {
    let dates = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    let environment = ChildEnvironment.inherited().setting([
      "COUNTDOWN_ID": String(expired.id),
      "COUNTDOWN_TITLE": expired.row.title,
      "COUNTDOWN_ENDS_AT": expired.endsAt.formatted(dates),
      "COUNTDOWN_EXPIRED_AT": expired.expiredAt.formatted(dates),
      "COUNTDOWN_ATTEMPT": String(expired.attempt),
    ])
    let result: ChildProcessResult
    do {
      result = try await ChildProcess.run(
        .shell(command, environment: environment), output: .inherit, errors: .inherit)
    } catch {
      throw Failure(description: "cannot run /bin/sh: \(error)")
    }
    try Task.checkCancellation()
    guard result.termination.isSuccess else { throw Failure(description: result.termination.description) }
  }
}
