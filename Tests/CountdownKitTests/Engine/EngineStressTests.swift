import TestSupport
import CountdownKit
import Foundation
import Testing

/// Eight threads hammering one engine on the real clock while its driver runs, a main-actor task
/// binding slots beside them, then checks of what everyone received. Run it under ThreadSanitizer
/// (the flag makes the engine's locks visible to it, see `Lock`):
/// `swift test --sanitize=thread -Xswiftc -DCOUNTDOWNKIT_TSAN_LOCKS --filter EngineStressTests`.
///
/// The threads are `Thread`s, not tasks: the cooperative pool has only as many threads as there are
/// cores, and the point is to have many callers inside the engine's lock at once.
@Suite(.timeLimit(.minutes(5)))
struct EngineStressTests {
  typealias Instant = ContinuousClock.Instant
  typealias Snapshot = CountdownSnapshot<Duration, Instant>

  /// A display that changes every 5 ms: lots of wake-ups, lots of deliveries.
  static let display = RoundedDisplay(unit: .milliseconds(5))

  /// What kind of countdown a key stands for, and so how many completions it may have.
  enum Kind: Sendable {
    /// Never changed, except by calls that change nothing (resume while running, extend by zero).
    case plain
    /// Paused, resumed, retargeted and extended at random.
    case changed
  }

  /// Everything the subscribers received, by key.
  final class Tally: Sendable {
    struct State {
      var finishes: [Int: Int] = [:]
      var snapshots: [Int: [Snapshot]] = [:]
      var rowFinishes = 0
      var slotMismatches = 0
      var streamDisorders = 0
    }

    let state = Lock(State())
    let finished: AsyncStream<Int>
    private let finishedContinuation: AsyncStream<Int>.Continuation

    init() {
      (finished, finishedContinuation) = AsyncStream.makeStream(of: Int.self)
    }

    func finish(_ key: Int) {
      state.withLock { $0.finishes[key, default: 0] += 1 }
      finishedContinuation.yield(key)
    }

    func record(_ key: Int, _ snapshot: Snapshot) {
      state.withLock { $0.snapshots[key, default: []].append(snapshot) }
    }
  }

  /// What one thread did, for the checks afterwards.
  struct Record: Sendable {
    var kinds: [Int: Kind] = [:]
    var cancelled: Set<Int> = []
    /// For changed countdowns: how many changes could have put time back (each may re-arm the completion).
    var rearms: [Int: Int] = [:]
    var rows: Set<Int> = []
    var handles: [Int: CountdownHandle<ContinuousClock>] = [:]
    var operations = 0
  }

  @Test func eightThreadsHammeringOneEngine() async throws {
    let seed = SeededGenerator.testSeed()
    print("EngineStressTests seed: \(seed)")
    let engine = CountdownEngine(clock: ContinuousClock(), tolerance: .milliseconds(2))
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: Self.display)
    let tally = Tally()
    let finishing = board.onFinish { _ in tally.state.withLock { $0.rowFinishes += 1 } }
    defer { finishing.cancel() }
    let done = Lock(false)

    let binder = Task { @MainActor in
      await Self.bindSlots(board: board, tally: tally, seed: seed, until: { done.withLock { $0 } })
    }
    let records = await withTaskGroup(of: Record.self) { group in
      for thread in 0..<8 {
        group.addTask {
          await withCheckedContinuation { continuation in
            Thread {
              continuation.resume(
                returning: Self.hammer(engine, board: board, tally: tally, thread: thread, seed: seed))
            }.start()
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    done.withLock { $0 = true }
    await binder.value

    var kinds: [Int: Kind] = [:]
    var cancelled: Set<Int> = []
    var rearms: [Int: Int] = [:]
    var rows: Set<Int> = []
    for record in records {
      kinds.merge(record.kinds) { first, _ in first }
      cancelled.formUnion(record.cancelled)
      rearms.merge(record.rearms) { first, _ in first }
      rows.formUnion(record.rows)
    }
    #expect(records.map(\.operations).reduce(0, +) == 8 * Self.operationsPerThread)
    #expect(Set(board.ids) == rows, "the board holds exactly the rows the threads left on it")

    // Every plain countdown that was not cancelled finishes (within a few milliseconds of real time).
    var waitingFor = Set(kinds.filter { $0.value == .plain }.keys).subtracting(cancelled)
    let alreadyFinished = tally.state.withLock { Set($0.finishes.keys) }
    waitingFor.subtract(alreadyFinished)
    if !waitingFor.isEmpty {
      for await key in tally.finished {
        waitingFor.remove(key)
        if waitingFor.isEmpty { break }
      }
    }

    let state = tally.state.withLock { $0 }
    for (key, kind) in kinds {
      let finishes = state.finishes[key, default: 0]
      switch kind {
      case .plain where cancelled.contains(key):
        #expect(finishes <= 1, "plain countdown \(key), cancelled: \(finishes) completions; seed \(seed)")
      case .plain:
        #expect(finishes == 1, "plain countdown \(key): \(finishes) completions; seed \(seed)")
      case .changed:
        #expect(
          finishes <= 1 + rearms[key, default: 0], "changed countdown \(key): \(finishes) completions; seed \(seed)")
      }
      // Time never runs backwards for a subscriber, and a plain countdown's value never goes up.
      let snapshots = state.snapshots[key, default: []]
      for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
        #expect(
          earlier.instant <= later.instant, "countdown \(key): a snapshot from the past arrived late; seed \(seed)")
        if kind == .plain {
          #expect(earlier.value >= later.value, "countdown \(key): \(earlier.value) then \(later.value); seed \(seed)")
          #expect(
            earlier.value != later.value || earlier.isFinished != later.isFinished, "countdown \(key): a repeated value"
          )
        }
      }
      if kind == .plain, !cancelled.contains(key), let last = snapshots.last {
        #expect(last.isFinished, "countdown \(key) ended without showing it; seed \(seed)")
      }
    }
    #expect(state.slotMismatches == 0, "a slot rendered a row it was no longer bound to")
    #expect(state.streamDisorders == 0, "a stream went back in time or its value went up")

    // Cancel what is left: the engine holds nothing but the board's rows, then nothing at all.
    for record in records {
      for (key, handle) in record.handles where !cancelled.contains(key) { handle.cancel() }
    }
    board.apply(.reloaded([]))
    #expect(engine.count == 0, "seed \(seed)")
  }

  /// Enough to keep eight threads inside the engine together for about a second; a tenth of that with
  /// the invariant checks compiled in, which walk the whole scheduler after every change.
  static var operationsPerThread: Int {
    EngineCore.checksInvariants ? 40 : 400
  }

  /// One thread's share: a seeded random mix of every operation, on its own countdowns and rows.
  static func hammer(
    _ engine: CountdownEngine<ContinuousClock>,
    board: CountdownBoard<Int, RoundedDisplay, ContinuousClock>,
    tally: Tally,
    thread: Int,
    seed: UInt64
  ) -> Record {
    var rng = SeededGenerator(seed: seed &+ UInt64(thread))
    var record = Record()
    var nextKey = thread * 100_000
    func shortCountdown() -> Countdown<Instant> {
      Countdown(duration: .microseconds(Int64.random(in: 0...40_000, using: &rng)), startingAt: engine.now)
    }
    func add(_ kind: Kind) {
      let key = nextKey
      nextKey += 1
      record.kinds[key] = kind
      if Bool.random(using: &rng) {
        record.handles[key] = engine.add(
          shortCountdown(), display: display, onChange: { tally.record(key, $0) }, onFinish: { tally.finish(key) })
      } else {
        record.handles[key] = engine.add(shortCountdown()) { tally.finish(key) }
      }
    }
    func randomHandle(_ kind: Kind) -> (key: Int, handle: CountdownHandle<ContinuousClock>)? {
      let keys = record.handles.keys.filter { record.kinds[$0] == kind && !record.cancelled.contains($0) }
      guard let key = keys.randomElement(using: &rng) else { return nil }
      return (key, record.handles[key]!)
    }
    for _ in 0..<operationsPerThread {
      record.operations += 1
      let row = thread * 1_000 + Int.random(in: 0..<20, using: &rng)
      switch Int.random(in: 0..<20, using: &rng) {
      case 0, 1, 2: add(.plain)
      case 3, 4: add(.changed)
      case 5, 6, 7:
        // Calls that change nothing, made while the driver may be serving the same countdown.
        guard let (_, handle) = randomHandle(.plain) else { continue }
        if Bool.random(using: &rng) { handle.resume() } else { handle.extend(by: .zero) }
      case 8, 9, 10:
        guard let (key, handle) = randomHandle(.changed) else { continue }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: handle.pause()
        case 1:
          handle.resume()
          record.rearms[key, default: 0] += 1
        case 2:
          handle.retarget(to: engine.now.advanced(by: .microseconds(Int64.random(in: -5_000...30_000, using: &rng))))
          record.rearms[key, default: 0] += 1
        default:
          handle.extend(by: .microseconds(Int64.random(in: -10_000...10_000, using: &rng)))
          record.rearms[key, default: 0] += 1
        }
      case 11:
        guard let (key, handle) = randomHandle(Bool.random(using: &rng) ? .plain : .changed) else { continue }
        handle.cancel()
        record.cancelled.insert(key)
      case 12, 13:
        board.put(row, shortCountdown(), at: engine.now)
        record.rows.insert(row)
      case 14:
        board.apply(.removed([row]))
        record.rows.remove(row)
      case 15:
        if Bool.random(using: &rng) { board.pause(row) } else { board.resume(row) }
      case 16:
        if Bool.random(using: &rng) { board.pauseAll() } else { board.resumeAll() }
      case 17:
        let stream = engine.snapshots(of: shortCountdown(), display: display)
        Task {
          var last: Snapshot?
          for await snapshot in stream {
            if let last, last.instant > snapshot.instant || last.value < snapshot.value {
              tally.state.withLock { $0.streamDisorders += 1 }
            }
            last = snapshot
          }
        }
      default:
        _ = board.snapshot(for: row)
        _ = engine.count
      }
    }
    // Rows paused on their own or by the board would never finish: leave the board running.
    board.resumeAll()
    return record
  }

  /// Binds and rebinds a few slots to the threads' rows while they change, checking that every render
  /// is for the row the slot is bound to at that moment.
  @MainActor
  static func bindSlots(
    board: CountdownBoard<Int, RoundedDisplay, ContinuousClock>,
    tally: Tally,
    seed: UInt64,
    until isDone: () -> Bool
  ) async {
    var rng = SeededGenerator(seed: seed &+ 1_000)
    var slots: [CountdownSlot<Int, RoundedDisplay, ContinuousClock>?] = (0..<4).map { _ in board.slot() }
    while !isDone() {
      let position = Int.random(in: slots.indices, using: &rng)
      let row = Int.random(in: 0..<8, using: &rng) * 1_000 + Int.random(in: 0..<20, using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: slots[position] = nil
      case 1: slots[position]?.unbind()
      default:
        let slot = slots[position] ?? board.slot()
        slots[position] = slot
        slot.bind(to: row) { [weak slot] _ in
          if slot?.boundID != row { tally.state.withLock { $0.slotMismatches += 1 } }
        }
      }
      await Task.yield()
    }
  }
}
