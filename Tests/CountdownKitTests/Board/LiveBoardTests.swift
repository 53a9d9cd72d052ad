import CountdownKit
import CountdownTesting
import Foundation
import Testing
import TestSupport

/// Boards that keep every row's value (`BoardValues.everyRow`): the batches an app gets once per
/// wake-up hold exactly the rows whose value changed, never early, never twice, through pauses,
/// retargets, removals and rows added meanwhile.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct LiveBoardTests {
  typealias Board = CountdownBoard<Int, RoundedDisplay, ManualClock>

  /// What the app saw: each row's last value and flags, and every delivery.
  final class Mirror {
    var shown: [Int: (value: Duration, isPaused: Bool, isFinished: Bool)] = [:]
    var batches = 0
    var note = ""
    var history: [Int: [String]] = [:]
    /// Rows changed by hand since the last batch: one that changed and changed back before the batch
    /// may come with the value it had (the batch has the newest value only).
    var touched = Set<Int>()
    var repeats: [String] = []

    func apply(_ changes: Board.Changes) {
      batches += 1
      var seen = Set<Int>()
      for change in changes {
        if !seen.insert(change.id).inserted { repeats.append("row \(change.id) twice in one batch") }
        if let old = shown[change.id], old.value == change.value, old.isPaused == change.isPaused,
          old.isFinished == change.isFinished, !touched.contains(change.id)
        {
          repeats.append("row \(change.id) given \(change.value) again \(note) \(history[change.id] ?? [])")
        }
        shown[change.id] = (change.value, change.isPaused, change.isFinished)
        history[change.id, default: []].append("\(note): \(change.value)\(change.isPaused ? " paused" : "")")
      }
      touched = []
    }
  }

  @Test func everyRowOfTheAppsMirrorIsTheTruthWithinATolerance() {
    let seed = SeededGenerator.testSeed()
    print("LiveBoardTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for round in 0..<6 {
      checkRound(round, seed: seed, using: &rng)
    }
  }

  private func checkRound(_ round: Int, seed: UInt64, using rng: inout SeededGenerator) {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds, values: .everyRow)
    let mirror = Mirror()
    let mirroring = board.onChanges { mirror.apply($0) }
    defer { mirroring.cancel() }
    var truth: [Int: Countdown<ManualClock.Instant>] = [:]
    func randomCountdown() -> Countdown<ManualClock.Instant> {
      let end = clock.now.advanced(by: rng.duration(milliseconds: -2_000...30_000))
      return Bool.random(using: &rng) ? Countdown(end: end) : Countdown(end: end).paused(at: clock.now)
    }
    var initial: [Int: Countdown<ManualClock.Instant>] = [:]
    for id in 0..<200 { initial[id] = randomCountdown() }
    board.put(initial, at: clock.now)
    truth = initial
    engine._serveDue()
    let context = "seed \(seed), round \(round)"
    for step in 0..<400 {
      // Changes between wake-ups, as an app (or a source) makes them.
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        let id = Int.random(in: 0..<260, using: &rng)
        let op = Int.random(in: 0..<6, using: &rng)
        mirror.note = "step \(step) op \(op) on \(id)"
        mirror.touched.insert(id)
        switch op {
        case 0:
          board.apply(.removed([id]))
          truth[id] = nil
          mirror.shown[id] = nil
        case 1:
          board.pause(id)
          if let countdown = truth[id], !countdown.isPaused { truth[id] = countdown.paused(at: clock.now) }
        case 2:
          board.resume(id)
          if let countdown = truth[id], countdown.isPaused { truth[id] = countdown.resumed(at: clock.now) }
        default:
          let countdown = randomCountdown()
          board.put(id, countdown, at: clock.now)
          truth[id] = countdown
        }
      }
      // Mostly less than a tolerance; now and then a jump over whole seconds, as after a suspension.
      let isJump = Int.random(in: 0..<25, using: &rng) == 0
      clock.advance(by: rng.duration(milliseconds: isJump ? 1_000...3_500 : 1...120))
      mirror.note = "step \(step)"
      engine._serveDue()
      // Every row the app holds shows what is true now, or what was true less than a tolerance ago,
      // never a value whose time has not come.
      for (id, countdown) in truth {
        guard let shown = mirror.shown[id] else {
          Issue.record("\(context), step \(step): row \(id) never given")
          continue
        }
        let now = countdown.snapshot(at: clock.now, display: RoundedDisplay.seconds)
        let recent = countdown.snapshot(
          at: clock.now.advanced(by: .milliseconds(-100)), display: RoundedDisplay.seconds)
        #expect(shown.isPaused == countdown.isPaused, "\(context), step \(step): row \(id) paused flag")
        #expect(
          shown.value == now.value || shown.value == recent.value,
          "\(context), step \(step): row \(id) shows \(shown.value), true \(now.value) (\(recent.value) 100 ms ago)")
        #expect(shown.value >= now.value, "\(context), step \(step): row \(id) early")
      }
    }
    #expect(mirror.repeats.isEmpty, "\(context): \(mirror.repeats.prefix(5))")
    #expect(mirror.batches > 100)
  }

  @Test func aBatchHoldsTheRowsWhoseValueChangedAndNoOther() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds, values: .everyRow)
    var batches: [[Int: Duration]] = []
    let changing = board.onChanges { changes in
      batches.append(Dictionary(uniqueKeysWithValues: changes.map { ($0.id, $0.value) }))
    }
    defer { changing.cancel() }
    // Ends at 10.2 s, 10.5 s, 10.8 s and 60.5 s: all but the last change at .2, .5 and .8 of each second.
    board.put(
      [
        0: Countdown(end: clock.now.advanced(by: .milliseconds(10_200))),
        1: Countdown(end: clock.now.advanced(by: .milliseconds(10_500))),
        2: Countdown(end: clock.now.advanced(by: .milliseconds(10_800))),
        3: Countdown(end: clock.now.advanced(by: .milliseconds(60_500))),
      ], at: clock.now)
    engine._serveDue()
    #expect(batches == [[0: .seconds(11), 1: .seconds(11), 2: .seconds(11), 3: .seconds(61)]])
    clock.advance(by: .milliseconds(300))
    engine._serveDue()
    #expect(batches.last == [0: .seconds(10)], "only row 0 crossed a second")
    clock.advance(by: .milliseconds(300))
    engine._serveDue()
    #expect(batches.last == [1: .seconds(10), 3: .seconds(60)])
    let count = batches.count
    clock.advance(by: .milliseconds(50))
    engine._serveDue()
    #expect(batches.count == count, "nothing changed: no batch")
  }

  @Test func aMainActorThatFallsBehindGetsOneBatchWithTheNewestValues() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds, values: .everyRow)
    var batches: [Board.Changes] = []
    let changing = board.onChanges { batches.append($0) }
    defer { changing.cancel() }
    var rows: [Int: Countdown<ManualClock.Instant>] = [:]
    for id in 0..<1_000 { rows[id] = Countdown(end: clock.now.advanced(by: .milliseconds(30_000 - id))) }
    board.put(rows, at: clock.now)
    engine._serveDue()
    #expect(batches.count == 1 && batches[0].count == 1_000)
    let done = DispatchSemaphore(value: 0)
    Thread {
      for _ in 0..<30 {
        clock.advance(by: .milliseconds(100))
        engine._serveDueElsewhere()
      }
      done.signal()
    }.start()
    done.wait()
    engine._serveDue()
    #expect(batches.count == 2, "one batch for three seconds of wake-ups")
    let last = batches.last.map(Array.init) ?? []
    #expect(last.count == 1_000 && Set(last.map(\.id)).count == 1_000)
    // The newest values: what each row shows now, or showed less than a tolerance ago (its group is
    // served at the end of its window).
    let wrong = last.filter { change in
      let countdown = rows[change.id] ?? Countdown(end: clock.now)
      let now = countdown.snapshot(at: clock.now, display: RoundedDisplay.seconds).value
      let recent = countdown.snapshot(at: clock.now.advanced(by: .milliseconds(-100)), display: RoundedDisplay.seconds)
      return change.value != now && change.value != recent.value
    }
    #expect(wrong.isEmpty, "\(wrong.count) rows: \(wrong.prefix(5).map { "\($0.id): \($0.value)" })")
    #expect(last.contains { $0.value == .seconds(27) } && last.allSatisfy { $0.value <= .seconds(28) })
  }

  @Test func rowsAddedInsideABatchComeInTheNextOne() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds, values: .everyRow)
    var batches: [[Int]] = []
    let changing = board.onChanges { changes in
      batches.append(changes.ids.sorted())
      if batches.count == 1 { board.put(9, Countdown(end: clock.now.advanced(by: .seconds(5))), at: clock.now) }
    }
    defer { changing.cancel() }
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(10))), at: clock.now)
    engine._serveDue()
    engine._serveDue()
    #expect(batches == [[1], [9]])
  }

  @Test func countsPerPhaseAreKeptAsRowsChange() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let urgency = PhaseDisplay.phases("calm", [.seconds(60): "soon", .seconds(10): "now"])
    let board = engine.board(of: Int.self, display: urgency, values: .everyRow)
    var rows: [Int: Countdown<ManualClock.Instant>] = [:]
    for id in 0..<300 { rows[id] = Countdown(end: clock.now.advanced(by: .seconds(Int64(id)))) }
    board.put(rows, at: clock.now)
    engine._serveDue()
    func counts() -> [String: Int] { Dictionary(uniqueKeysWithValues: board.counts.map { ($0.value, $0.count) }) }
    func truth() -> [String: Int] {
      var truth: [String: Int] = [:]
      for countdown in rows.values { truth[countdown.snapshot(at: clock.now, display: urgency).value, default: 0] += 1 }
      return truth
    }
    #expect(counts() == truth())
    for _ in 0..<40 {
      clock.advance(by: .seconds(3))
      engine._serveDue()
      #expect(counts() == truth())
    }
    board.apply(.removed([299]))
    rows[299] = nil
    board.pause(250)
    #expect(counts() == truth())
  }

  @Test func theChangesSequenceGetsTheBatchesOffTheMainActor() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds, values: .everyRow)
    var iterator = board.changes().makeAsyncIterator()
    board.put(1, Countdown(end: clock.now.advanced(by: .milliseconds(2_500))), at: clock.now)
    engine._serveDue()
    let first = await iterator.next()
    #expect(first.map { Array($0.ids) } == [1] && first?.first?.value == .seconds(3))
    clock.advance(by: .milliseconds(600))
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    // Two wake-ups before the consumer looked: one batch, the newest value.
    let second = await iterator.next()
    #expect(second?.count == 1 && second?.first?.value == .seconds(1))
  }

  @Test func aBoardWithoutLiveValuesHasNoBatchesAndNoCounts() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: RoundedDisplay.seconds)
    var batches = 0
    let changing = board.onChanges { _ in batches += 1 }
    defer { changing.cancel() }
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(3))), at: clock.now)
    engine._serveDue()
    #expect(batches == 0 && board.counts.isEmpty)
    #expect(board.value(of: 1) == .seconds(3))
  }
}
