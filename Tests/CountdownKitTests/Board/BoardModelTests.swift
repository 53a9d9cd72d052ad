import TestSupport
import CountdownKit
import CountdownTesting
import Testing

/// Random interleavings of everything a list does to a board (rows set, refreshed, removed, paused;
/// cells bound, rebound, unbound, released; time passing), checked after every step against a
/// brute-force model: each bound slot shows exactly what its row's true remaining time displays (a row
/// may show in several slots at once), no slot shows a row it is not bound to, and completions fire once per reaching zero, never for rows
/// that were removed.
@MainActor
@Suite struct BoardModelTests {
  typealias Instant = ManualClock.Instant
  typealias Snapshot = CountdownSnapshot<Duration, Instant>
  typealias Board = CountdownBoard<Int, RoundedDisplay, ManualClock>

  /// A row as the model sees it: the time left is computed from scratch, not taken from the engine.
  enum ModelRow {
    case running(end: Instant)
    case paused(remaining: Duration)

    func remaining(at now: Instant) -> Duration {
      switch self {
      case .running(let end): now.duration(to: end)
      case .paused(let remaining): remaining
      }
    }

    var isPaused: Bool {
      if case .paused = self { return true }
      return false
    }

    func paused(at now: Instant) -> ModelRow { .paused(remaining: remaining(at: now)) }

    func resumed(at now: Instant) -> ModelRow { .running(end: now.advanced(by: remaining(at: now))) }

    /// Whole seconds left, rounded up, and zero once finished: `.seconds`, computed by hand.
    func displayed(at now: Instant) -> Duration {
      let left = remaining(at: now)
      guard left > .zero else { return .zero }
      let (seconds, attoseconds) = left.components
      return .seconds(attoseconds > 0 ? seconds + 1 : seconds)
    }
  }

  /// The whole model, and the board under test beside it.
  @MainActor
  final class Run {
    let clock: ManualClock
    let engine: CountdownEngine<ManualClock>
    let board: CountdownBoard<Int, RoundedDisplay, ManualClock>
    var rows: [Int: ModelRow] = [:]
    var armed: [Int: Bool] = [:]
    var individuallyPaused: Set<Int> = []
    var boardPaused = false
    var expectedFinishes: [Int: Int] = [:]
    var finishes: [Int: Int] = [:]
    var finishing: BoardObservation?
    var slots: [CountdownSlot<Int, RoundedDisplay, ManualClock>?] = [nil, nil, nil]
    /// The row each slot position is bound to, as far as the slot knows.
    var binding: [Int?] = [nil, nil, nil]
    /// What each slot position shows: the row its binding was for, and the last snapshot.
    var shown: [(id: Int, snapshot: Snapshot)?] = [nil, nil, nil]

    init() {
      (engine, clock) = makeManualEngine()
      board = engine.board(of: Int.self, display: .seconds)
      finishing = board.onFinish { [unowned self] id in finishes[id, default: 0] += 1 }
    }

    var now: Instant { clock.now }

    func set(_ id: Int, _ countdown: Countdown<Instant>) {
      board.put(id, countdown, at: now)
      modelSet(id, countdown)
    }

    func modelSet(_ id: Int, _ countdown: Countdown<Instant>) {
      var row: ModelRow =
        countdown.isPaused ? .paused(remaining: countdown.remaining(at: now)) : .running(end: countdown.end!)
      if countdown.isPaused { individuallyPaused.insert(id) } else { individuallyPaused.remove(id) }
      if boardPaused { row = row.paused(at: now) }
      if rows[id] == nil { armed[id] = true }
      rows[id] = row
    }

    func modelRemove(_ id: Int) {
      rows[id] = nil
      armed[id] = nil
      individuallyPaused.remove(id)
    }

    func bind(_ position: Int, to id: Int) {
      let slot = slots[position] ?? board.slot()
      slots[position] = slot
      binding[position] = id
      shown[position] = nil
      slot.bind(to: id) { [unowned self] snapshot in shown[position] = (id, snapshot) }
    }

    func unbind(_ position: Int, releasing: Bool) {
      binding[position] = nil
      shown[position] = nil
      if releasing { slots[position] = nil } else { slots[position]?.unbind() }
    }

    /// Completions as the engine defines them: once each time a row is seen at zero after having had
    /// time left (a new row counts as having had time left).
    func settleCompletions() {
      for (id, row) in rows {
        if row.remaining(at: now) > .zero {
          armed[id] = true
        } else if armed[id] == true {
          armed[id] = false
          expectedFinishes[id, default: 0] += 1
        }
      }
    }
  }

  static func randomCountdown(at now: Instant, using rng: inout SeededGenerator) -> Countdown<Instant> {
    // Whole seconds half of the time, to land exactly on display boundaries.
    let left: Duration =
      Bool.random(using: &rng)
      ? .seconds(Int64.random(in: -2...20, using: &rng)) : rng.duration(milliseconds: -2_000...20_000)
    let countdown = Countdown(end: now.advanced(by: left), total: .seconds(20))
    return Int.random(in: 0..<4, using: &rng) == 0 ? countdown.paused(at: now) : countdown
  }

  @Test func randomInterleavingsMatchABruteForceModel() {
    let seed = SeededGenerator.testSeed()
    print("BoardModelTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for interleaving in 0..<1_000 {
      runInterleaving(steps: 30, context: "seed \(seed), interleaving \(interleaving)", using: &rng)
    }
  }

  private func runInterleaving(steps: Int, context: String, using rng: inout SeededGenerator) {
    let run = Run()
    defer { run.engine.shutdown() }
    var trace: [String] = []
    for _ in 0..<steps {
      let id = Int.random(in: 0..<5, using: &rng)
      let position = Int.random(in: 0..<3, using: &rng)
      switch Int.random(in: 0..<16, using: &rng) {
      case 0, 1:
        let countdown = Self.randomCountdown(at: run.now, using: &rng)
        trace.append("set \(id) \(countdown.state)")
        run.set(id, countdown)
      case 2:
        let remaining = rng.duration(milliseconds: -1_000...10_000)
        trace.append("set paused \(id) \(remaining)")
        let paused = Countdown(end: run.now.advanced(by: remaining)).paused(at: run.now)
        run.board.put(id, paused, at: run.now)
        run.modelSet(id, paused)
      case 3:
        trace.append("remove \(id)")
        run.board.apply(.removed([id]))
        run.modelRemove(id)
      case 4:
        var fresh: [Int: Countdown<Instant>] = [:]
        for candidate in 0..<5 where Bool.random(using: &rng) {
          fresh[candidate] = Self.randomCountdown(at: run.now, using: &rng)
        }
        trace.append("reloaded \(fresh.keys.sorted())")
        run.board.apply(.reloaded(Board.rows(fresh, at: run.now)))
        for gone in run.rows.keys where fresh[gone] == nil { run.modelRemove(gone) }
        for (key, countdown) in fresh { run.modelSet(key, countdown) }
      case 5:
        trace.append("pause \(id)")
        run.board.pause(id)
        if let row = run.rows[id] {
          run.individuallyPaused.insert(id)
          run.rows[id] = row.paused(at: run.now)
        }
      case 6:
        trace.append("resume \(id)")
        run.board.resume(id)
        if let row = run.rows[id], run.individuallyPaused.remove(id) != nil, !run.boardPaused {
          run.rows[id] = row.resumed(at: run.now)
        }
      case 7:
        trace.append("pauseAll")
        run.board.pauseAll()
        run.boardPaused = true
        for (key, row) in run.rows { run.rows[key] = row.paused(at: run.now) }
      case 8:
        trace.append("resumeAll")
        run.board.resumeAll()
        run.boardPaused = false
        for (key, row) in run.rows where !run.individuallyPaused.contains(key) {
          run.rows[key] = row.resumed(at: run.now)
        }
      case 9, 10:
        trace.append("bind slot \(position) to \(id)")
        run.bind(position, to: id)
      case 11:
        trace.append("unbind slot \(position)")
        run.unbind(position, releasing: false)
      case 12:
        trace.append("release slot \(position)")
        run.unbind(position, releasing: true)
      default:
        let amount: Duration
        if Bool.random(using: &rng), let row = run.rows.values.randomElement(using: &rng),
          row.remaining(at: run.now) > .zero
        {
          // Exactly onto a row's next boundary.
          let left = row.remaining(at: run.now)
          let (seconds, attoseconds) = left.components
          amount = attoseconds > 0 ? left - .seconds(seconds) : .seconds(1)
        } else {
          amount = rng.duration(milliseconds: 0...3_000)
        }
        trace.append("advance \(amount)")
        run.clock.advance(by: amount)
      }
      run.engine._serveDue()
      run.settleCompletions()
      guard check(run, context: { "\(context): \(trace.joined(separator: "; "))" }) else { return }
    }
  }

  /// Compares the board with the model; false (after recording issues) at the first mismatch.
  private func check(_ run: Run, context: () -> String) -> Bool {
    var ok = true
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      guard ok, !condition else { return }
      ok = false
      Issue.record("\(message()) — \(context())")
    }
    for position in 0..<3 {
      expect(run.slots[position]?.boundID == run.binding[position], "slot \(position) is bound to the wrong row")
      if let shown = run.shown[position] {
        expect(
          shown.id == run.binding[position],
          "slot \(position) shows row \(shown.id), bound to \(String(describing: run.binding[position]))")
      }
    }
    for position in 0..<3 {
      guard let id = run.binding[position], let row = run.rows[id] else { continue }
      guard let shown = run.shown[position] else {
        expect(false, "slot \(position) bound to row \(id) shows nothing")
        continue
      }
      expect(
        shown.snapshot.value == row.displayed(at: run.now),
        "slot \(position) shows \(shown.snapshot.value) for row \(id), expected \(row.displayed(at: run.now))")
      expect(shown.snapshot.isPaused == row.isPaused, "slot \(position): row \(id) paused: \(row.isPaused)")
      expect(
        shown.snapshot.isFinished == (row.remaining(at: run.now) <= .zero), "slot \(position): row \(id) finished flag")
    }
    for (id, row) in run.rows {
      expect(
        run.board.countdown(for: id)?.remaining(at: run.now) == row.remaining(at: run.now), "row \(id): remaining time")
    }
    expect(Set(run.board.ids) == Set(run.rows.keys), "rows on the board")
    expect(
      run.finishes == run.expectedFinishes.filter { $0.value > 0 },
      "completions \(run.finishes), expected \(run.expectedFinishes)")
    return ok
  }
}
