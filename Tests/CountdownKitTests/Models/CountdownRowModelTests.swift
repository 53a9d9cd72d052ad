import CountdownKit
import CountdownTesting
import TestSupport
import Testing

/// `CountdownRowModel`: over random list activity, exactly one observation per visible change of the
/// row it shows (none per tick, none for other rows), none after it is released, and a released model
/// leaves no binding on the board.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct CountdownRowModelTests {
  typealias Instant = ManualClock.Instant
  typealias Board = CountdownBoard<Int, RoundedDisplay, ManualClock>
  typealias Model = CountdownRowModel<Int, RoundedDisplay, ManualClock>

  /// What a row view shows.
  struct Visible: Equatable, CustomStringConvertible {
    var id: Int?
    var value: Duration?
    var isPaused = false
    var isFinished = false

    init(id: Int?, snapshot: CountdownSnapshot<Duration, Instant>?) {
      self.id = id
      value = snapshot?.value
      isPaused = snapshot?.isPaused ?? false
      isFinished = snapshot?.isFinished ?? false
    }

    @MainActor init(_ model: Model) {
      id = model.id
      value = model.value
      isPaused = model.isPaused
      isFinished = model.isFinished
    }

    var description: String { "row \(id.map(String.init) ?? "-"): \(value.map(String.init(describing:)) ?? "-")" }
  }

  static func randomCountdown(at now: Instant, using rng: inout SeededGenerator) -> Countdown<Instant> {
    let left: Duration =
      Bool.random(using: &rng)
      ? .seconds(Int64.random(in: -2...300, using: &rng)) : rng.duration(milliseconds: -2_000...300_000)
    let countdown = Countdown(end: now.advanced(by: left), total: .seconds(300))
    return Int.random(in: 0..<5, using: &rng) == 0 ? countdown.paused(at: now) : countdown
  }

  /// One random step of list activity on `board`; `model` may be told to show another row.
  static func randomStep(
    board: Board, model: Model?, clock: ManualClock, using rng: inout SeededGenerator
  ) -> String {
    let id = Int.random(in: 0..<4, using: &rng)
    switch Int.random(in: 0..<20, using: &rng) {
    case 0, 1:
      board.put(id, randomCountdown(at: clock.now, using: &rng), at: clock.now)
      return "set \(id)"
    case 2:
      board.apply(.removed([id]))
      return "remove \(id)"
    case 3:
      board.pause(id)
      return "pause \(id)"
    case 4:
      board.resume(id)
      return "resume \(id)"
    case 5:
      board.pauseAll()
      return "pauseAll"
    case 6:
      board.resumeAll()
      return "resumeAll"
    case 7:
      model?.show(id)
      return "show \(id)"
    case 8 where Int.random(in: 0..<10, using: &rng) == 0:
      model?.hide()
      return "hide"
    default:
      // Mostly far enough to cross a second; now and then a tick that shows nothing new.
      let amount =
        Int.random(in: 0..<4, using: &rng) == 0
        ? rng.duration(milliseconds: 0...300) : rng.duration(milliseconds: 500...2_500)
      clock.advance(by: amount)
      return "advance \(amount)"
    }
  }

  @Test func oneObservationPerVisibleChangeOverRandomActivity() {
    let seed = SeededGenerator.testSeed()
    print("CountdownRowModelTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    for id in 0..<4 { board.put(id, Self.randomCountdown(at: clock.now, using: &rng), at: clock.now) }
    let model = Model(board: board)
    model.show(0)
    engine._serveDue()
    let perStep = ObservationCounter()
    let everyValue = ObservationCounter()
    trackEveryPublication(everyValue) { _ = model.value }
    var valueChanges = 0
    var expected = Visible(id: 0, snapshot: board.snapshot(for: 0))
    var visibleChanges = 0
    var observations = 0
    var steps = 0
    var trace: [String] = []
    // With the engine's invariant checks compiled in (a CI pass), every step walks the whole core:
    // fewer changes, so that this main-actor test does not hold up the others for half a minute.
    let wanted = EngineCore.checksInvariants ? 2_000 : 10_000
    while visibleChanges < wanted && steps < 200_000 {
      steps += 1
      trackOnce(perStep) {
        _ = model.id
        _ = model.snapshot
        _ = model.value
        _ = model.progress
        _ = model.isPaused
        _ = model.isFinished
      }
      let action = Self.randomStep(board: board, model: model, clock: clock, using: &rng)
      trace = Array((trace + [action]).suffix(8))
      engine._serveDue()
      // What the row view should show now: the row's current snapshot; a row that left the board
      // leaves its last one; a model showing nothing shows nothing.
      var now = expected
      if let id = model.id {
        if id != expected.id || board.countdown(for: id) != nil {
          now = Visible(id: id, snapshot: board.snapshot(for: id))
        }
      } else {
        now = Visible(id: nil, snapshot: nil)
      }
      let changed = now != expected
      if now.value != expected.value { valueChanges += 1 }
      expected = now
      if changed { visibleChanges += 1 }
      if perStep.take() > 0 { observations += 1 }
      guard Visible(model) == expected, observations == visibleChanges, everyValue.value == valueChanges else {
        let shown = Visible(model)
        let recent = trace.joined(separator: "; ")
        Issue.record(
          Comment(
            rawValue: "step \(steps): model shows \(shown), expected \(expected); \(observations) observations for "
              + "\(visibleChanges) visible changes, \(everyValue.value) publications of the value for \(valueChanges) "
              + "changes of it (seed \(seed); last steps: \(recent))"))
        return
      }
    }
    #expect(visibleChanges >= wanted)
    print("CountdownRowModelTests: \(visibleChanges) visible changes, \(observations) observations in \(steps) steps")
  }

  @Test func aReleasedModelPublishesNothingAndLeavesNoBinding() {
    let seed = SeededGenerator.testSeed()
    print("CountdownRowModelTests.aReleasedModel seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    for id in 0..<4 { board.put(id, Countdown(duration: .seconds(60), startingAt: clock.now), at: clock.now) }
    let counter = ObservationCounter()
    weak var released: Model?
    do {
      let model = Model(board: board)
      released = model
      model.show(2)
      engine._serveDue()
      #expect(board.bindingState(of: 2).isBound)
      #expect(model.value == .seconds(60))
      trackOnce(counter) { _ = model.value }
    }
    #expect(released == nil, "nothing keeps a row model alive")
    for id in 0..<4 { #expect(!board.bindingState(of: id).isBound, "row \(id) is still bound") }
    for _ in 0..<2_000 {
      _ = Self.randomStep(board: board, model: nil, clock: clock, using: &rng)
      engine._serveDue()
    }
    #expect(counter.value == 0)
    #expect(board.ids.count <= 4)
  }

  @Test func showingTheSameRowIsNoChangeAndAnotherRowIsOne() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    board.put(1, Countdown(duration: .seconds(10), startingAt: clock.now), at: clock.now)
    board.put(2, Countdown(duration: .seconds(10), startingAt: clock.now), at: clock.now)
    let model = Model(board: board)
    model.show(1)
    #expect(model.value == .seconds(10), "shown at once")
    let counter = ObservationCounter()
    trackOnce(counter) { _ = model.value }
    model.show(1)
    engine._serveDue()
    #expect(counter.take() == 0)
    let everything = ObservationCounter()
    trackEveryPublication(everything) { _ = model.id }
    model.show(2)
    #expect(everything.value == 1 && model.id == 2 && model.value == .seconds(10))
    // A row not on the board yet shows nothing, then its first snapshot when it is added.
    model.show(3)
    #expect(model.snapshot == nil && model.value == nil)
    board.put(3, Countdown(duration: .seconds(5), startingAt: clock.now), at: clock.now)
    engine._serveDue()
    #expect(model.value == .seconds(5))
    // Another row's changes publish nothing.
    let values = ObservationCounter()
    trackEveryPublication(values) { _ = model.value }
    board.put(1, Countdown(duration: .seconds(99), startingAt: clock.now), at: clock.now)
    board.pause(2)
    engine._serveDue()
    #expect(values.value == 0)
    model.hide()
    #expect(model.id == nil && model.value == nil && values.value == 1)
    #expect(!board.bindingState(of: 3).isBound)
    model._receive(Countdown(duration: .seconds(5), startingAt: clock.now).snapshot(at: clock.now, display: .seconds))
    #expect(values.value == 2, "a snapshot handed directly is shown")
  }
}
