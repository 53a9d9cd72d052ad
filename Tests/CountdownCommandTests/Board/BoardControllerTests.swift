import CountdownKit
import Foundation
import Synchronization
import Testing

@testable import CountdownCommandLine

/// A source of orders in memory whose first load stops after its first page until the test lets it go
/// on, and that counts the rows each read returns.
final class SlowSource: OrderSource {
  let orders: [Order]
  let gate = PollGate()
  private let rowsRead = Mutex(0)
  private let (done, finished) = AsyncStream.makeStream(of: Void.self)

  init(count: Int) {
    let end = Date().addingTimeInterval(3_600)
    orders = (1...count).map { (id: Int) -> Order in
      let window: Result<Deadline, InvalidDeadline> = id % 10 == 0 ? .failure(.noEnd) : .success(.until(end))
      let eventAt: Date? = id % 3 == 0 ? end : nil
      return Order(id: Int64(id), title: "Order \(id)", window: window, eventAt: eventAt)
    }
  }

  var path: String { "memory" }
  /// How many rows the screen's reads have returned.
  var read: Int { rowsRead.withLock { $0 } }

  func orders(from id: Int64, limit: Int) throws -> [Order] {
    let rows = Array(orders.filter { $0.id >= id }.prefix(limit))
    rowsRead.withLock { $0 += rows.count }
    return rows
  }

  func orders(before id: Int64?, limit: Int) throws -> [Order] {
    let rows = Array(orders.filter { $0.id < id ?? .max }.suffix(limit))
    rowsRead.withLock { $0 += rows.count }
    return rows
  }

  func follow(_ deliver: @escaping @Sendable (OrderChange) async -> Void) async throws {
    await deliver(.loading(total: orders.count, events: nil))
    let times = orders.map(OrderTimes.init)
    await deliver(.changed(Array(times.prefix(1_000)), removed: [], isFirstLoad: true))
    finished.yield()
    try await gate.wait()
    await deliver(.changed(Array(times.dropFirst(1_000)), removed: [], isFirstLoad: true))
    await deliver(.loaded(unreadable: 0))
    finished.yield()
  }

  /// Waits until the first page was delivered, then until the whole load was (and so applied:
  /// `deliver` returns once the boards have dealt with the change).
  func delivered() async {
    var iterator = done.makeAsyncIterator()
    await iterator.next()
  }

  func count() throws -> Int { orders.count }
  func countRunning(endingAfter date: Date) throws -> Int { orders.count }
  func add(title: String, windowEnd: Date, eventAt: Date?) throws -> Int64 { 0 }
  func add(_ orders: [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]) throws {}
  func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool { false }
  func pause(_ id: Int64, now: Date) throws -> Bool { false }
  func resume(_ id: Int64, now: Date) throws -> Bool { false }
  func remove(_ id: Int64) throws {}
}

/// A source in memory that delivers `.unreadable(0)`, `.unreadable(1)`, … and records how far it got.
final class CountingSource: OrderSource {
  let limit: Int
  let returned = Mutex(0)
  private let (ended, end) = AsyncStream.makeStream(of: Void.self)

  init(limit: Int) { self.limit = limit }

  func follow(_ deliver: @escaping @Sendable (OrderChange) async -> Void) async throws {
    for count in 0..<limit {
      guard !Task.isCancelled else { break }
      await deliver(.unreadable(count))
      returned.withLock { $0 = count + 1 }
    }
    end.finish()
  }

  /// Waits until `follow(_:)` has returned.
  func followed() async {
    for await _ in ended {}
  }

  var path: String { "memory" }
  func orders(from id: Int64, limit: Int) throws -> [Order] { [] }
  func orders(before id: Int64?, limit: Int) throws -> [Order] { [] }
  func count() throws -> Int { 0 }
  func countRunning(endingAfter date: Date) throws -> Int { 0 }
  func add(title: String, windowEnd: Date, eventAt: Date?) throws -> Int64 { 0 }
  func add(_ orders: [(title: String, windowEnd: Date, pausedRemaining: Double?, eventAt: Date?)]) throws {}
  func setWindowEnd(of id: Int64, to end: Date, now: Date) throws -> Bool { false }
  func pause(_ id: Int64, now: Date) throws -> Bool { false }
  func resume(_ id: Int64, now: Date) throws -> Bool { false }
  func remove(_ id: Int64) throws {}
}

@Suite("A source's changes")
struct OrderChangesTests {
  @Test("A change is handed over when the consumer asks for the next one: the source never runs ahead")
  func handedOverOneAtATime() async throws {
    let source = CountingSource(limit: 1_000)
    var changes = source.changes().makeAsyncIterator()
    for expected in 0..<5 {
      let change = try await changes.next()
      guard case .unreadable(let count)? = change else {
        Issue.record("got \(String(describing: change))")
        return
      }
      #expect(count == expected)
      // However long the consumer takes over this change, the source waits in its `deliver`.
      for _ in 0..<100 { await Task.yield() }
      #expect(source.returned.withLock { $0 } == expected, "deliver returned only for the changes asked past")
    }
  }

  @Test("Every change arrives, in order, and the sequence ends when the source does")
  func endsWithTheSource() async throws {
    let source = CountingSource(limit: 50)
    var seen: [Int] = []
    for try await change in source.changes() {
      if case .unreadable(let count) = change { seen.append(count) }
    }
    #expect(seen == Array(0..<50))
    await source.followed()
  }

  @Test("Cancelling the consumer ends the source")
  func cancellingEndsTheSource() async throws {
    let source = CountingSource(limit: .max)
    let consumer = Task {
      var taken = 0
      for try await _ in source.changes() { taken += 1 }
      return taken
    }
    while source.returned.withLock({ $0 }) < 10 { await Task.yield() }
    consumer.cancel()
    await source.followed()
    let taken = try await consumer.value
    #expect(taken >= 10)
  }
}

/// The board controller against a source in memory: what it shows before and after the load, and how
/// it moves through rows it reads a screenful at a time.
@MainActor
@Suite("Board controller")
struct BoardControllerTests {
  func makeController(_ source: SlowSource, rows: Int = 5) -> BoardController {
    let controller = BoardController(store: source, locale: Locale(identifier: "en_US"), plain: true, plainRows: rows)
    controller.holdsOutput = true
    return controller
  }

  @Test("The first screen shows before the load ends, with the load's progress; the counts come when it ends")
  func firstFrameBeforeTheLoadEnds() async throws {
    let source = SlowSource(count: 50_000)
    let controller = makeController(source)
    defer { controller.boards.shutdown() }
    try controller.start()
    let first = controller.screen
    #expect(first.rows.map(\.id) == [1, 2, 3, 4, 5])
    #expect(first.rows.allSatisfy { $0.window != .loading }, "every shown row has its value: \(first.rows)")
    #expect(first.rows[2].eventText?.hasPrefix("event in ") == true)
    #expect(first.finishedCount == nil && first.invalidCount == nil, "not counted before every row is read")
    #expect(source.read == 5, "the first screen reads its rows only")

    // The load's first page has been applied; the rest waits for the gate.
    await source.delivered()
    #expect(controller.screen.orderCount == 50_000)
    #expect(BoardFrameBuilder.status(controller.screen) == "50000 orders · loading 2% · finished: counting…")
    #expect(controller.boards.windows.count == 900, "the first page's valid windows, the first screen's among them")

    await source.gate.open()
    await source.delivered()
    let loaded = controller.screen
    #expect(loaded.loading == nil)
    #expect(loaded.orderCount == 50_000)
    #expect(loaded.invalidCount == 5_000)
    #expect(loaded.finishedCount == 0)
    #expect(controller.boards.windows.count == 45_000)
    #expect(controller.boards.events.count == 16_666)
    #expect(source.read == 5, "nothing else was read for the screen")
  }

  @Test("Moving reads the rows it moves to; the selection stays on screen and stops at both ends")
  func moving() async throws {
    let source = SlowSource(count: 100)
    let controller = makeController(source, rows: 5)
    defer { controller.boards.shutdown() }
    try controller.start()
    controller.move(by: 3)
    #expect(controller.selectedID == 4 && controller.shown.first?.id == 1)
    controller.move(by: 4)
    #expect(controller.selectedID == 8 && controller.shown.map(\.id) == [4, 5, 6, 7, 8])
    controller.move(by: -5)
    #expect(controller.selectedID == 3 && controller.shown.first?.id == 3)
    controller.moveToLast()
    #expect(controller.selectedID == 100 && controller.shown.map(\.id) == [96, 97, 98, 99, 100])
    controller.move(by: 10)
    #expect(controller.selectedID == 100, "stops at the last row")
    controller.move(by: -200)
    #expect(controller.selectedID == 1 && controller.shown.first?.id == 1, "stops at the first row")
    controller.move(by: -1)
    #expect(controller.selectedID == 1)
    controller.moveToLast()
    controller.moveToFirst()
    #expect(controller.selectedID == 1 && controller.shown.map(\.id) == [1, 2, 3, 4, 5])
    await source.gate.close()
  }
}
