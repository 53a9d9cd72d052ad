import CountdownKit
import Testing
import TestSupport

/// The board's hash index against a `Dictionary`: random inserts and removals of IDs that collide a lot.
@Suite struct BoardIndexTests {
  /// An ID whose hash has only a few values, so that probe runs are long and wrap around the table.
  struct CollidingID: Hashable {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
  }

  @Test func matchesADictionaryThroughRandomInsertsAndRemovals() {
    let seed = SeededGenerator.testSeed()
    print("BoardIndexTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    var index = BoardIndex()
    var ids: [CollidingID] = []
    var model: [CollidingID: Int] = [:]
    var freeRows: [Int] = []
    for step in 0..<20_000 {
      let id = CollidingID(value: Int.random(in: 0..<600, using: &rng))
      if let row = model[id] {
        #expect(index.remove(id, ids: ids) == row, "seed \(seed), step \(step)")
        model[id] = nil
        freeRows.append(row)
      } else {
        let row = freeRows.popLast() ?? ids.count
        if row == ids.count { ids.append(id) } else { ids[row] = id }
        if Int.random(in: 0..<50, using: &rng) == 0 { index.reserve(Int.random(in: 0..<500, using: &rng), ids: ids) }
        index.insert(row, for: id, ids: ids)
        model[id] = row
      }
      #expect(index.count == model.count)
      if step % 500 == 0 {
        for value in 0..<600 {
          let probe = CollidingID(value: value)
          #expect(index.row(of: probe, ids: ids) == model[probe], "seed \(seed), step \(step), id \(value)")
        }
        #expect(Set(index.rows) == Set(model.values))
      }
    }
  }
}
