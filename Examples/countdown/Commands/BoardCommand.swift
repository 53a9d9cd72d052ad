import ArgumentParser
import CountdownKit
import Foundation

/// `countdown board`: the live order board and the commands that edit its database.
struct BoardCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "board",
    abstract: "A live list of orders with fitting-window countdowns, on SQLite or PostgreSQL.",
    discussion: """
      Each order has a fitting window that ends at a wall-clock date (stored as a server would send \
      it) and shows as a ring and coarse time left: "2 hours", "1.5 hours", then minutes. Some \
      orders also count down to an event. Only the rows on screen are bound to live countdowns; \
      rows that finish off screen are still counted.

      --db names the SQLite file, before or after the subcommand; without it the board uses \
      $COUNTDOWN_DB, else a demo database in your cache directory, seeded with 3000 orders. The \
      board notices edits from other processes within a second, so try in a second terminal:

        countdown board set 7 90m        order 7's window now ends in 90 minutes
        countdown board pause 7          freeze it (stores the time left)
        countdown board resume 7
        countdown board add "Fitting: Ada L." 45m --event 2h
        countdown board remove 7
        countdown board --db orders.sqlite add "Pickup: Bo" 18:00
        COUNTDOWN_DB=orders.sqlite countdown board --once

      A row another program wrote with a value the board cannot use shows as invalid with the \
      reason; set gives it a new deadline, remove deletes it.

      With --db postgres://user@host:5432/database the board follows a PostgreSQL table instead \
      (countdown board init --db … creates it): the server pushes each edit, from any machine, to every \
      board at once, and countdown expire --db … expires each order exactly once across workers; the \
      password comes from PGPASSWORD or ~/.pgpass, as for psql, and the status line says whether the \
      board is following the server or reconnecting. That needs countdown-pg, the same command with PostgreSQL \
      support (swift build -c release --package-path Examples --product countdown-pg).
      """,
    subcommands: [
      ShowBoard.self, SetOrder.self, PauseOrder.self, ResumeOrder.self, AddOrder.self, RemoveOrder.self,
      InitBoard.self,
    ],
    defaultSubcommand: ShowBoard.self
  )

  @OptionGroup var database: DatabaseOptions
}

/// `--db`, accepted before the board's subcommand (`countdown board --db F add …`) and after it
/// (`countdown board add … --db F`).
struct DatabaseOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The SQLite file (created if missing), or a postgres://user@host:5432/database URL. "
        + "Default: $COUNTDOWN_DB, else a demo database in the cache directory.", valueName: "path|url"))
  var db: String?

  /// The database file: `--db` after the subcommand, else before it (`parent`), else `COUNTDOWN_DB`;
  /// nil for the demo database.
  func path(parent: DatabaseOptions) -> String? {
    if let db { return db }
    if let db = parent.db { return db }
    if let db = ProcessInfo.processInfo.environment["COUNTDOWN_DB"], !db.isEmpty { return db }
    return nil
  }

  /// Opens the database (a PostgreSQL URL: its orders table); the demo database is seeded when it is
  /// empty, and seeded again when every window in it is over (the demo's windows span eight hours).
  func open(parent: DatabaseOptions) throws -> any OrderSource {
    let chosen = path(parent: parent)
    if let chosen, let server = try OrderSources.openServer(chosen) { return server }
    let store = try OrderStore(path: chosen ?? DemoOrders.defaultPath())
    if chosen == nil, try store.countRunning(endingAfter: Date()) == 0 {
      try store.replaceAll(with: DemoOrders.orders(count: 3_000, now: Date()))
    }
    return store
  }
}

/// An order id argument.
struct OrderID: ParsableArguments {
  @Argument(help: ArgumentHelp("The order's id (the number after # on the board).", valueName: "id"))
  var number: WholeNumber

  /// The id.
  var id: Int64 { number.value }
}

struct ShowBoard: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show the board (the default).",
    discussion: """
      Keys: ↑/↓ move, PgUp/PgDn page, Home/End, p (or space) pauses or resumes the selected order, \
      q quits. With --plain (or when standard output is not a terminal) it prints a line each time \
      one of the first --rows rows changes, until interrupted.
      """
  )

  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  @Flag(help: "Print one line per change of the visible rows instead of the live view.")
  var plain = false

  @Option(help: "How many rows --plain follows (a whole number).")
  var rows: WholeNumber = 10

  @Flag(help: "With --plain: print the rows once and exit (a listing for scripts).")
  var once = false

  @Option(help: ArgumentHelp("Fill an empty database with this many demo orders first.", valueName: "count"))
  var seed: WholeNumber?

  @Flag(help: "Delete every order and seed the database again (3000 orders unless --seed says otherwise).")
  var reset = false

  @Option(help: ArgumentHelp("The language of the times, e.g. en, de, ru.", valueName: "identifier"))
  var locale: String?

  func validate() throws {
    guard (1...1_000_000).contains(rows.value) else { throw ValidationError("--rows must be in 1...1000000.") }
    if let seed, !(0...1_000_000).contains(seed.value) {
      throw ValidationError("--seed must be in 0...1000000.")
    }
    try FormatOptions(locale: locale).validate()
  }

  func run() async throws {
    let store = try database.open(parent: board.database)
    if reset {
      guard let file = store as? OrderStore else {
        throw ValidationError("--reset refills a demo SQLite file; it does not empty a PostgreSQL table.")
      }
      try file.replaceAll(with: DemoOrders.orders(count: Int(seed?.value ?? 3_000), now: Date()))
    } else if let seed, try store.count() == 0 {
      try store.add(DemoOrders.orders(count: Int(seed.value), now: Date()))
    }
    try await Self.show(
      store, locale: FormatOptions(locale: locale).resolvedLocale, plain: plain || once || !Terminal.outputIsTerminal,
      rows: Int(rows.value), once: once)
  }

  @MainActor
  private static func show(_ store: any OrderSource, locale: Locale, plain: Bool, rows: Int, once: Bool) async throws {
    let view = BoardController(store: store, locale: locale, plain: plain, plainRows: rows)
    defer { view.boards.shutdown() }
    try await view.run(once: once)
  }
}

struct SetOrder: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Move an order's window end.",
    discussion: "<time> is a duration from now (90m), a time of day (18:00) or a date (2026-12-31T18:00:00Z)."
  )

  @OptionGroup var order: OrderID
  @Argument(help: "The new end of the window.") var time: String
  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func validate() throws {
    _ = try deadline(time, now: Date())
  }

  func run() throws {
    let now = Date()
    let end = try deadline(time, now: now)
    if try database.open(parent: board.database).setWindowEnd(of: order.id, to: end, now: now) {
      print("Order \(order.id) is paused; it will have \(time) left when resumed.")
    } else {
      print("Order \(order.id): window ends \(end.formatted(date: .abbreviated, time: .standard)).")
    }
  }
}

struct PauseOrder: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause an order's window.")

  @OptionGroup var order: OrderID
  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    let paused = try database.open(parent: board.database).pause(order.id, now: Date())
    print(paused ? "Order \(order.id) paused." : "Order \(order.id) was already paused.")
  }
}

struct ResumeOrder: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused order's window.")

  @OptionGroup var order: OrderID
  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    let resumed = try database.open(parent: board.database).resume(order.id, now: Date())
    print(resumed ? "Order \(order.id) resumed." : "Order \(order.id) was not paused.")
  }
}

struct AddOrder: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an order; prints its id.")

  @Argument(help: "The order's title.") var title: String
  @Argument(help: "The end of its window: 90m, 18:00, 2026-12-31T18:00:00Z.") var time: String
  @Option(help: ArgumentHelp("When its event starts, in the same forms.", valueName: "time")) var event: String?
  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func validate() throws {
    _ = try deadline(time, now: Date())
    _ = try event.map { try deadline($0, now: Date()) }
  }

  func run() throws {
    let now = Date()
    let end = try deadline(time, now: now)
    let eventAt = try event.map { try deadline($0, now: now) }
    let id = try database.open(parent: board.database).add(title: title, windowEnd: end, eventAt: eventAt)
    print(id)
  }
}

struct RemoveOrder: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete an order.")

  @OptionGroup var order: OrderID
  @ParentCommand var board: BoardCommand
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    try database.open(parent: board.database).remove(order.id)
    print("Order \(order.id) removed.")
  }
}

/// The wall-clock deadline of a `<time>` argument at `now`; a ValidationError (exit 64) if it is not a time.
private func deadline(_ text: String, now: Date) throws -> Date {
  do {
    switch try TimeSpec(parsing: text).resolved(now: now, calendar: .current) {
    case .deadline(let date): return date
    case .duration(let duration): return now.addingTimeInterval(duration.timeIntervalValue)
    }
  } catch {
    throw ValidationError(error.description)
  }
}
