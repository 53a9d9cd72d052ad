import CountdownKit
import CountdownTesting
import Testing

/// `CountdownRowModel` under a SwiftUI `List`: the list keeps each row view's state (its model) while
/// the row is in its data, on screen or not, and tells the row when it appears and disappears. With
/// `show` in `onAppear` and `hide` in `onDisappear`, the board's bindings are the rows on screen.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct RowModelListTests {
  typealias Model = CountdownRowModel<Int, RoundedDisplay, ManualClock>

  /// A list of `rows` rows showing `visible` at a time, keeping every row's model as SwiftUI keeps a
  /// row's `@State`.
  @MainActor final class List {
    let board: CountdownBoard<Int, RoundedDisplay, ManualClock>
    let visible: Int
    /// Every row's model, made when the row first appears and kept from then on.
    private(set) var models: [Int: Model] = [:]
    private(set) var top = 0
    /// Whether rows are hidden when they disappear (the documented way) or not.
    let hidesOnDisappear: Bool

    init(board: CountdownBoard<Int, RoundedDisplay, ManualClock>, visible: Int, hidesOnDisappear: Bool) {
      self.board = board
      self.visible = visible
      self.hidesOnDisappear = hidesOnDisappear
    }

    var onScreen: Range<Int> { top..<(top + visible) }

    func appear(_ id: Int) {
      let model = models[id] ?? Model(board: board)
      models[id] = model
      model.show(id)
    }

    func disappear(_ id: Int) {
      if hidesOnDisappear { models[id]?.hide() }
    }

    /// Scrolls so that row `top` is the first on screen.
    func scroll(to top: Int) {
      let old = onScreen
      self.top = top
      for id in old where !onScreen.contains(id) { disappear(id) }
      for id in onScreen where !old.contains(id) { appear(id) }
    }

    func start() {
      for id in onScreen { appear(id) }
    }
  }

  @Test func scrollingThreeThousandRowsTenTimesKeepsTheBindingsToWhatIsOnScreen() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    // With the engine's invariant checks compiled in (a CI pass), every step walks the whole core:
    // fewer rows then, so that this main-actor test does not hold up the others for minutes.
    let rowCount = EngineCore.checksInvariants ? 300 : 3_000
    // Ends spread over ten hours: every row changes every second, on screen or not.
    board.apply(.upserted((0..<rowCount).map { BoardRow(id: $0, deadline: .after(.seconds(3_600 + $0 * 12))) }))
    let list = List(board: board, visible: 12, hidesOnDisappear: true)
    list.start()
    // A detail view of one row, open for the whole test.
    let detailID = rowCount / 2
    let detail = Model(board: board)
    detail.show(detailID)
    var mostBindings = 0
    var mostSlots = 0
    var timesDetailRowOnScreen = 0
    for pass in 0..<10 {
      let tops =
        pass.isMultiple(of: 2)
        ? Array(stride(from: 0, through: rowCount - 12, by: 3)) : Array(stride(from: rowCount - 12, through: 0, by: -3))
      for top in tops {
        list.scroll(to: top)
        clock.advance(by: .seconds(1))
        engine._serveDue()
        // What is on screen: 12 rows, and the detail's row if it is not one of them.
        let onScreen = list.onScreen.count + (list.onScreen.contains(detailID) ? 0 : 1)
        let bindings = engine.statistics.subscribers
        mostBindings = max(mostBindings, bindings)
        mostSlots = max(mostSlots, board.slotCount)
        guard bindings <= onScreen, board.slotCount == list.onScreen.count + 1 else {
          Issue.record(
            "pass \(pass), top \(top): \(bindings) engine bindings, \(board.slotCount) slots for \(onScreen) rows on screen"
          )
          return
        }
        for id in list.onScreen {
          guard list.models[id]?.value == board.snapshot(for: id)?.value else {
            Issue.record(
              "pass \(pass), row \(id) shows \(String(describing: list.models[id]?.value)), its row \(String(describing: board.snapshot(for: id)?.value))"
            )
            return
          }
        }
        let truth = board.snapshot(for: detailID)?.value
        guard detail.value == truth else {
          Issue.record(
            "pass \(pass), top \(top): the detail shows \(String(describing: detail.value)), its row \(String(describing: truth))"
          )
          return
        }
        if list.onScreen.contains(detailID) { timesDetailRowOnScreen += 1 }
      }
    }
    #expect(list.models.count == rowCount, "SwiftUI kept a model for every row that appeared")
    #expect(mostBindings <= 13 && mostSlots == 13)
    #expect(timesDetailRowOnScreen > 0, "the detail's row was in the list beside it, both live")
    print("RowModelListTests: at most \(mostBindings) engine bindings and \(mostSlots) slots over 10 passes")
  }

  @Test func aModelThatIsNeverHiddenStaysBoundAfterItsRowScrollsAway() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    board.apply(.upserted((0..<300).map { BoardRow(id: $0, deadline: .after(.seconds(3_600))) }))
    let list = List(board: board, visible: 12, hidesOnDisappear: false)
    list.start()
    for top in stride(from: 0, through: 288, by: 12) {
      list.scroll(to: top)
      clock.advance(by: .seconds(1))
      engine._serveDue()
    }
    #expect(engine.statistics.subscribers == 300, "why the docs say to hide a row model in onDisappear")
  }

  @Test func aRowModelWithARingPublishesItsProgressAtEachVisibleStep() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .coarse)
    board.apply(.upserted([BoardRow(id: 1, deadline: .after(.seconds(7_200)), total: .seconds(7_200))]))
    let ringed = CountdownRowModel(board: board, progressSteps: 120)
    let plain = CountdownRowModel(board: board)
    ringed.show(1)
    plain.show(1)
    let progressChanges = ObservationCounter()
    let plainChanges = ObservationCounter()
    trackEveryPublication(progressChanges) { _ = ringed.progress }
    trackEveryPublication(plainChanges) { _ = plain.progress }
    for _ in 0..<720 {
      clock.advance(by: .seconds(10))
      engine._serveDue()
    }
    #expect(ringed.value == .zero && ringed.progress == 0)
    // 120 steps of a minute each; the text changes with them below an hour, and every half hour above.
    #expect(progressChanges.value == 120)
    // Without a ring, the progress moves only with the text: every half hour above an hour, then
    // every minute.
    #expect(plainChanges.value == 2 + 60)
  }
}
