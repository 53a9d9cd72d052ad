import Foundation
import Spawn
import Synchronization
import Testing

extension ServerTests {
  /// `countdown-pg board … --db postgres://…` and `countdown-pg expire`, the built binary, against a fresh
  /// database.
  @Suite("countdown-pg on PostgreSQL")
  struct CommandTests {
    /// Runs `countdown-pg` to its end; (status, standard output, standard error).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws
      -> (status: Int32, output: String, errors: String)
    {
      guard let binary = KilledWorkerTests.countdownPG() else { return (-1, "", "no countdown-pg") }
      let result = try await ChildProcess.run(
        ChildCommand(binary.path, arguments: arguments, environment: Self.environment(environment)),
        timeout: .seconds(60))
      let status: Int32 =
        switch result.termination {
        case .exited(let status): status
        case .signalled(let signal): -signal
        }
      return (status, result.outputText.trimmingCharacters(in: .newlines), result.errorText)
    }

    /// The tests' environment for `countdown-pg`: TZ=UTC, LANG=en_US.UTF-8 and `extra`.
    static func environment(_ extra: [String: String] = [:]) -> ChildEnvironment {
      .inherited().setting(["TZ": "UTC", "LANG": "en_US.UTF-8"].merging(extra) { $1 })
    }

    @Test func everyBoardSubcommandWorksAgainstPostgres() async throws {
      let database = try await TestServer.freshDatabase("command")
      let db = database.url
      let missing = try await Self.run(["board", "--once", "--db", db])
      #expect(missing.status == 1)
      #expect(missing.errors.contains("No table orders in"), "\(missing.errors)")
      #expect(missing.errors.contains("countdown board init --db"))

      #expect(try await Self.run(["board", "init", "--db", db]).output.contains("ready in postgres://"))
      let added = try await Self.run(["board", "add", "Fitting: Ada L.", "45m", "--event", "2h", "--db", db])
      #expect(added.status == 0 && added.output == "1", "\(added)")
      #expect(try await Self.run(["board", "add", "Pickup: \u{1B}[31mBo", "3h", "--db", db]).output == "2")
      #expect(try await Self.run(["board", "set", "1", "90m", "--db", db]).output.hasPrefix("Order 1: window ends"))
      #expect(try await Self.run(["board", "pause", "2", "--db", db]).output == "Order 2 paused.")
      #expect(try await Self.run(["board", "pause", "2", "--db", db]).output == "Order 2 was already paused.")
      let listing = try await Self.run(["board", "--once", "--db", db])
      #expect(listing.status == 0)
      #expect(
        listing.output.contains("#1 Fitting: Ada L. | ") && listing.output.contains("event in "), "\(listing.output)")
      #expect(listing.output.contains("(paused)"))
      #expect(!listing.output.contains("\u{1B}"), "a title's escape sequence never reaches the terminal")
      #expect(try await Self.run(["board", "resume", "2", "--db", db]).output == "Order 2 resumed.")
      #expect(try await Self.run(["board", "remove", "2", "--db", db]).output == "Order 2 removed.")
      let gone = try await Self.run(["board", "remove", "2", "--db", db])
      #expect(gone.status == 1 && gone.errors.contains("No row 2 in orders"))
      await database.drop()
    }

    /// `countdown-pg expire`, SIGTERM in the middle of a follow-up: the worker drains (stops claiming,
    /// lets the follow-up run for `--grace`, then ends it with what it started and gives the row back)
    /// and exits 0; the follow-up never sees the database's password.
    @Test func sigtermDrainsAWorkerAndEndsItsFollowUp() async throws {
      let database = try await TestServer.freshDatabase("drain")
      let db = database.url
      _ = try await Self.run(["board", "init", "--db", db])
      _ = try await Self.run(["board", "add", "Return: Di", "1s", "--db", db])
      guard let binary = KilledWorkerTests.countdownPG() else { return }
      let log = FileManager.default.temporaryDirectory.appending(path: "drain-\(UUID().uuidString).log").path
      defer { try? FileManager.default.removeItem(atPath: log) }
      // Records whether it sees PGPASSWORD, starts a background child, then takes far longer than --grace.
      let followUp = "echo \"pw=${PGPASSWORD-unset}\" >> '\(log)'; sleep 60 & echo $! >> '\(log)'; sleep 60"
      let lines = { (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? [] }
      let worker = try ChildProcess(
        ChildCommand(
          binary.path, arguments: ["expire", "--db", db, "--exec", followUp, "--grace", "1s", "--lease", "20s"],
          environment: Self.environment(["PGPASSWORD": "not-for-children"])),
        output: .capture, errors: .sameAsOutput)
      #expect(await eventually(within: .seconds(30)) { lines().count == 2 }, "the follow-up started")
      let signalled = ContinuousClock.now
      worker.send(SIGTERM)
      let ended = await eventually(within: .seconds(20)) { !worker.isRunning }
      if !ended { worker.sendToGroup(SIGKILL) }
      let status = await worker.wait()
      let output = String(decoding: worker.output, as: UTF8.self)
      #expect(ended && status == .exited(0), "\(status): \(output)")
      #expect(ContinuousClock.now - signalled < .seconds(15), "it waited for --grace, not for the follow-up")
      #expect(output.contains("draining"), "\(output)")
      #expect(lines().first == "pw=unset", "the follow-up got no PGPASSWORD")
      let background = try #require(lines().last.flatMap { Int32($0) })
      #expect(await eventually { Self.hasEnded(background) }, "the follow-up's own child ended with it")
      #expect(
        try await database.integers("SELECT count(*) FROM orders WHERE followed_up_at IS NULL") == [1],
        "the unfinished follow-up was not recorded as done")
      await database.drop()
    }

    /// Whether process `pid` is gone or a zombie (its parent may not have reaped it yet).
    static func hasEnded(_ pid: Int32) -> Bool {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return true }
      return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    @Test func anUnreachableServerIsAClearMessage() async throws {
      let result = try await Self.run(["board", "--once", "--db", "postgres://app@127.0.0.1:1/shop"])
      #expect(result.status == 1)
      #expect(result.errors.contains("Cannot reach the PostgreSQL server at 127.0.0.1:1"), "\(result.errors)")
      #expect(result.errors.contains("scripts/postgres-dev start"))
    }

    @Test func aLiveBoardShowsAnEditFromAnotherProcessAtOnce() async throws {
      let database = try await TestServer.freshDatabase("live")
      let db = database.url
      _ = try await Self.run(["board", "init", "--db", db])
      _ = try await Self.run(["board", "add", "Return: Cy", "5h", "--db", db])
      guard let binary = KilledWorkerTests.countdownPG() else { return }
      let lines = Mutex<[String]>([])
      let pending = Mutex(Data())
      let board = try ChildProcess(
        ChildCommand(
          binary.path, arguments: ["board", "--plain", "--rows", "5", "--db", db], environment: Self.environment()),
        output: .capture
      ) { _, data in
        let complete = pending.withLock { pending in
          pending.append(data)
          guard let last = pending.lastIndex(of: 0x0A) else { return [String]() }
          let text = String(decoding: pending[...last], as: UTF8.self)
          pending.removeSubrange(...last)
          return text.split(separator: "\n").map(String.init)
        }
        lines.withLock { $0 += complete }
      }
      #expect(await eventually { lines.withLock { $0.contains { $0.hasPrefix("#1 Return: Cy") } } })
      // Timed from the end of `add`: starting a process and connecting is not the board's part.
      _ = try await Self.run(["board", "add", "Fitting: Dee", "30m", "--db", db])
      let added = ContinuousClock.now
      #expect(
        await eventually(within: .seconds(2)) { lines.withLock { $0.contains { $0.hasPrefix("#2 Fitting: Dee") } } })
      print("CommandTests: a new order reached the running board \(ContinuousClock.now - added) after `add` ended")
      board.terminate()
      _ = await board.wait()
      await database.drop()
    }
  }
}
