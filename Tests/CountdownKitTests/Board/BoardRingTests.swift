import CountdownKit
import CountdownTesting
import Testing

/// A list row with text and a ring from one slot: rendered when the text changes and at each visible
/// step of the ring over the row's own total, and at no other time.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct BoardRingTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  /// What a slot showed at each render: the text's value and the ring's step out of `steps`.
  struct Render: Equatable, CustomStringConvertible {
    var value: Duration
    var step: Int?
    var description: String { "\(value) @ \(step.map(String.init) ?? "-")" }
  }

  /// The renders a slot with `steps` ring steps should get for a row of `total` that ends `left` after
  /// the start, sampling every second as the test's clock moves: one per change of what it shows.
  static func expected(left: Duration, total: Duration?, steps: Int?, seconds: Int) -> [Render] {
    let ring = total.flatMap { total in steps.map { ProgressDisplay(steps: $0, total: total) } }
    var renders: [Render] = []
    for second in 0...seconds {
      let remaining = left - .seconds(second)
      let render = Render(
        value: AdaptiveDisplay.coarse.value(remaining: remaining),
        step: ring.map { Int(($0.value(remaining: remaining) * Double($0.steps)).rounded()) })
      if renders.last != render { renders.append(render) }
    }
    return renders
  }

  static func render(_ snapshot: Snapshot, steps: Int?) -> Render {
    // The progress is exact at the render's instant (within a rounding error of a `Double`); the ring
    // shows it rounded up to a whole step.
    Render(
      value: snapshot.value,
      step: snapshot.progress.flatMap { progress in steps.map { Int((progress * Double($0) - 1e-9).rounded(.up)) } })
  }

  @Test func aRowWithARingRendersAtTextChangesAndRingStepsOverItsOwnTotal() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .coarse)
    // Two rows with different totals on one board: each ring steps over its own.
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(7_200)), total: .seconds(7_200)), at: clock.now)
    board.put(2, Countdown(end: clock.now.advanced(by: .seconds(4_000)), total: .seconds(5_400)), at: clock.now)
    var first: [Render] = []
    var second: [Render] = []
    let slots = (board.slot(), board.slot())
    slots.0.bind(to: 1, progressSteps: 120) { first.append(Self.render($0, steps: 120)) }
    slots.1.bind(to: 2, progressSteps: 120) { second.append(Self.render($0, steps: 120)) }
    for _ in 0..<7_300 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    let expectedFirst = Self.expected(left: .seconds(7_200), total: .seconds(7_200), steps: 120, seconds: 7_300)
    let expectedSecond = Self.expected(left: .seconds(4_000), total: .seconds(5_400), steps: 120, seconds: 7_300)
    #expect(first == expectedFirst)
    #expect(second == expectedSecond)
    // The text alone changes far less often than text and ring together.
    let textOnly = Self.expected(left: .seconds(7_200), total: nil, steps: nil, seconds: 7_300)
    #expect(textOnly.count < first.count && first.count <= textOnly.count + 120)
  }

  @Test func slotsWithRingsOfDifferentSizesOnOneRowEachRenderTheirOwnSteps() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .coarse)
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(3_600)), total: .seconds(3_600)), at: clock.now)
    var list: [Render] = []
    var detail: [Render] = []
    var text: [Duration] = []
    let (listSlot, detailSlot, textSlot) = (board.slot(), board.slot(), board.slot())
    listSlot.bind(to: 1, progressSteps: 60) { list.append(Self.render($0, steps: 60)) }
    detailSlot.bind(to: 1, progressSteps: 415) { detail.append(Self.render($0, steps: 415)) }
    textSlot.bind(to: 1) { text.append($0.value) }
    for _ in 0..<3_700 {
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(detail == Self.expected(left: .seconds(3_600), total: .seconds(3_600), steps: 415, seconds: 3_700))
    // The list's ring steps 60 times over the hour, whatever the detail's ring does beside it.
    #expect(list == Self.expected(left: .seconds(3_600), total: .seconds(3_600), steps: 60, seconds: 3_700))
    #expect(text == Self.expected(left: .seconds(3_600), total: nil, steps: nil, seconds: 3_700).map(\.value))
  }

  @Test func aNewTotalMovesTheRingAndARowWithoutTotalHasNone() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .coarse)
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(3_600)), total: .seconds(3_600)), at: clock.now)
    var shown: [Snapshot] = []
    let slot = board.slot()
    slot.bind(to: 1, progressSteps: 100) { shown.append($0) }
    #expect(shown.count == 1 && shown.last?.progress == 1)
    // The same end with a total twice as long: the ring is at half, the text as it was.
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(3_600)), total: .seconds(7_200)), at: clock.now)
    engine._serveDue()
    #expect(shown.count == 2 && shown.last?.progress == 0.5)
    clock.advance(by: .seconds(72))
    engine._serveDue()
    #expect(shown.count == 3, "one step of 72 s over two hours")
    // Without a total, the slot renders at the text's changes only.
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(600))), at: clock.now)
    engine._serveDue()
    let before = shown.count
    #expect(shown.last?.progress == nil)
    clock.advance(by: .seconds(59))
    engine._serveDue()
    #expect(shown.count == before)
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(shown.count == before + 1 && shown.last?.value == .seconds(540))
  }

  @Test func reuseNeverShowsAnotherRowsRingOrTime() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .coarse)
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(600)), total: .seconds(600)), at: clock.now)
    board.put(2, Countdown(end: clock.now.advanced(by: .seconds(6_000)), total: .seconds(7_200)), at: clock.now)
    var shown: [String] = []
    let slot = board.slot()
    slot.bind(to: 1, progressSteps: 100) { shown.append("1 \($0.value)") }
    // A ring step of row 1 is due and served, but not yet delivered to the main actor...
    clock.advance(by: .seconds(6))
    board.put(1, Countdown(end: clock.now.advanced(by: .seconds(300)), total: .seconds(600)), at: clock.now)
    // ...when the cell is reused for row 2.
    slot.bind(to: 2, progressSteps: 100) { shown.append("2 \($0.value)") }
    for _ in 0..<100 {
      clock.advance(by: .seconds(6))
      engine._serveDue()
    }
    #expect(shown.first == "1 600.0 seconds")
    #expect(shown.dropFirst().allSatisfy { $0.hasPrefix("2 ") }, "\(shown)")
    #expect(board.bindingState(of: 1) == (false, false))
  }
}
