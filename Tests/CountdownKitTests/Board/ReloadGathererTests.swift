import CountdownKit
import TestSupport
import Testing

/// A reload gathered until the source has caught up gives the rows a board must hold, in one piece:
/// rows upserted again replace the ones gathered, removed rows leave, and nothing is gathered outside a
/// reload.
@Suite struct ReloadGathererTests {
  struct Row: Identifiable, Equatable {
    var id: Int
    var value: Int
  }

  @Test func outsideAReloadNothingIsGathered() {
    var reload = ReloadGatherer<Row>()
    var gathered = reload.gather([Row(id: 1, value: 1)])
    #expect(!gathered)
    gathered = reload.gather(removing: [1])
    #expect(!gathered)
    let finished = reload.finish()
    #expect(finished == nil)
    #expect(!reload.isGathering)
  }

  @Test func pagesAndChangesMeanwhileGiveTheTableAsItIsOnceCaughtUp() {
    var reload = ReloadGatherer<Row>()
    reload.begin()
    var gathered = reload.gather([Row(id: 1, value: 1), Row(id: 2, value: 1), Row(id: 3, value: 1)])
    #expect(gathered)
    gathered = reload.gather(removing: [2, 99])
    #expect(gathered)
    gathered = reload.gather([Row(id: 1, value: 2), Row(id: 4, value: 1)])
    #expect(gathered)
    gathered = reload.gather([Row(id: 2, value: 3)])
    #expect(gathered)
    let finished = reload.finish()
    #expect(finished == [Row(id: 1, value: 2), Row(id: 2, value: 3), Row(id: 3, value: 1), Row(id: 4, value: 1)])
    #expect(!reload.isGathering)
    gathered = reload.gather([Row(id: 5, value: 1)])
    #expect(!gathered)
  }

  @Test func aReloadStartedAgainDropsWhatWasGathered() {
    var reload = ReloadGatherer<Row>()
    reload.begin()
    _ = reload.gather([Row(id: 1, value: 1)])
    reload.begin()
    _ = reload.gather([Row(id: 2, value: 1)])
    let finished = reload.finish()
    #expect(finished == [Row(id: 2, value: 1)])
  }

  /// Random upserts and removals against a dictionary that keeps the order rows were first seen in.
  @Test func agreesWithASimpleModel() {
    var random = SeededGenerator(seed: 32)
    for _ in 0..<200 {
      var reload = ReloadGatherer<Row>()
      var model: [Int: Int] = [:]
      var order: [Int] = []
      reload.begin()
      for step in 0..<Int.random(in: 0..<60, using: &random) {
        let ids = (0..<Int.random(in: 0..<5, using: &random)).map { _ in Int.random(in: 0..<20, using: &random) }
        if Bool.random(using: &random) {
          _ = reload.gather(ids.map { Row(id: $0, value: step) })
          for id in ids {
            if model[id] == nil, !order.contains(id) { order.append(id) }
            model[id] = step
          }
        } else {
          _ = reload.gather(removing: ids)
          for id in ids { model[id] = nil }
        }
      }
      let expected = order.compactMap { id in model[id].map { Row(id: id, value: $0) } }
      let finished = reload.finish()
      #expect(finished == expected)
    }
  }
}
