import Foundation
import Synchronization
import Testing

extension ServerTests {
  /// `countdown-pg board … --db postgres://…`, the built binary, against a fresh database.
  @Suite("countdown-pg board on PostgreSQL")
  struct CommandTests {
    /// Runs `countdown-pg` to its end; (status, standard output, standard error).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws
      -> (status: Int32, output: String, errors: String)
    {
      guard let binary = KilledWorkerTests.built("countdown-pg") else {
        return (-1, "", "countdown-pg was not built next to the tests")
      }
      let process = Process()
      process.executableURL = binary
      process.arguments = arguments
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      process.environment = ProcessInfo.processInfo.environment.merging(
        ["TZ": "UTC", "LANG": "en_US.UTF-8"].merging(environment) { $1 }
      ) { $1 }
      try process.run()
      let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, out.trimmingCharacters(in: .newlines), err)
    }

    @Test func everyBoardSubcommandWorksAgainstPostgres() async throws {
      let database = try await TestServer.freshDatabase("command")
      let db = database.url
      let missing = try Self.run(["board", "--once", "--db", db])
      #expect(missing.status == 1)
      #expect(missing.errors.contains("No table orders in"), "\(missing.errors)")
      #expect(missing.errors.contains("countdown board init --db"))

      #expect(try Self.run(["board", "init", "--db", db]).output.contains("ready in postgres://"))
      let added = try Self.run(["board", "add", "Fitting: Ada L.", "45m", "--event", "2h", "--db", db])
      #expect(added.status == 0 && added.output == "1", "\(added)")
      #expect(try Self.run(["board", "add", "Pickup: \u{1B}[31mBo", "3h", "--db", db]).output == "2")
      #expect(try Self.run(["board", "set", "1", "90m", "--db", db]).output.hasPrefix("Order 1: window ends"))
      #expect(try Self.run(["board", "pause", "2", "--db", db]).output == "Order 2 paused.")
      #expect(try Self.run(["board", "pause", "2", "--db", db]).output == "Order 2 was already paused.")
      let listing = try Self.run(["board", "--once", "--db", db])
      #expect(listing.status == 0)
      #expect(
        listing.output.contains("#1 Fitting: Ada L. | ") && listing.output.contains("event in "), "\(listing.output)")
      #expect(listing.output.contains("(paused)"))
      #expect(!listing.output.contains("\u{1B}"), "a title's escape sequence never reaches the terminal")
      #expect(try Self.run(["board", "resume", "2", "--db", db]).output == "Order 2 resumed.")
      #expect(try Self.run(["board", "remove", "2", "--db", db]).output == "Order 2 removed.")
      let gone = try Self.run(["board", "remove", "2", "--db", db])
      #expect(gone.status == 1 && gone.errors.contains("No row 2 in orders"))
      await database.drop()
    }

    @Test func anUnreachableServerIsAClearMessage() throws {
      let result = try Self.run(["board", "--once", "--db", "postgres://app@127.0.0.1:1/shop"])
      #expect(result.status == 1)
      #expect(result.errors.contains("Cannot reach the PostgreSQL server at 127.0.0.1:1"), "\(result.errors)")
      #expect(result.errors.contains("scripts/postgres-dev start"))
    }

    @Test func aLiveBoardShowsAnEditFromAnotherProcessAtOnce() async throws {
      let database = try await TestServer.freshDatabase("live")
      let db = database.url
      _ = try Self.run(["board", "init", "--db", db])
      _ = try Self.run(["board", "add", "Return: Cy", "5h", "--db", db])
      guard let binary = KilledWorkerTests.built("countdown-pg") else {
        Issue.record("countdown-pg was not built next to the tests")
        return
      }
      let board = Process()
      board.executableURL = binary
      board.arguments = ["board", "--plain", "--rows", "5", "--db", db]
      board.environment = ProcessInfo.processInfo.environment.merging(["TZ": "UTC", "LANG": "en_US.UTF-8"]) { $1 }
      let output = Pipe()
      board.standardOutput = output
      let lines = Mutex<[String]>([])
      output.fileHandleForReading.readabilityHandler = { handle in
        let text = String(decoding: handle.availableData, as: UTF8.self)
        lines.withLock { $0 += text.split(separator: "\n").map(String.init) }
      }
      try board.run()
      #expect(await eventually { lines.withLock { $0.contains { $0.hasPrefix("#1 Return: Cy") } } })
      let sent = ContinuousClock.now
      _ = try Self.run(["board", "add", "Fitting: Dee", "30m", "--db", db])
      #expect(
        await eventually(within: .seconds(2)) { lines.withLock { $0.contains { $0.hasPrefix("#2 Fitting: Dee") } } })
      print("CommandTests: a new order reached the running board \(ContinuousClock.now - sent) after `add` started")
      board.terminate()
      board.waitUntilExit()
      output.fileHandleForReading.readabilityHandler = nil
      await database.drop()
    }
  }
}
