@testable import CountdownKit
import Testing

/// The column of the instants paused rows were paused at: a dictionary while few rows have a value,
/// then a column, reading the same values either way.
@Suite struct SparseColumnTests {
  @Test func readsWhatWasWrittenBeforeAndAfterItMovesToAColumn() {
    var column = SparseColumn<Int64>(default: -1)
    let rows = 100
    for row in stride(from: 0, to: rows, by: 4) { column.set(row, to: Int64(row * 10), of: rows) }
    #expect(!column.isDense, "a quarter of the rows have a value: still a dictionary")
    #expect(column.storedCapacity < rows / 2)
    column.reset(8)
    column.set(8, to: 80, of: rows)
    #expect(!column.isDense, "a value written again counts once")
    column.set(1, to: 1, of: rows)
    #expect(column.isDense, "more than a quarter: a column")
    #expect(column.storedCapacity >= rows)
    for row in 0..<rows {
      let expected: Int64 = row == 1 ? 1 : row % 4 == 0 ? Int64(row * 10) : -1
      #expect(column[row] == expected, "row \(row)")
    }
    column.reset(4)
    column.set(99, to: 990, of: rows)
    #expect(column[4] == -1 && column[99] == 990 && column[0] == 0)
  }

  @Test func aResetRowReadsTheDefaultAndLeavesTheDictionary() {
    var column = SparseColumn<Int64>(default: 0)
    column.set(5, to: 7, of: 1_000)
    column.set(6, to: 8, of: 1_000)
    column.reset(5)
    #expect(column[5] == 0 && column[6] == 8 && column[7] == 0)
    for row in 10..<250 { column.set(row, to: 1, of: 1_000) }
    column.reset(6)
    for row in 10..<250 { column.reset(row) }
    // At most 241 rows had a value at once: under a quarter of them.
    #expect(!column.isDense)
    #expect(column[6] == 0 && column[100] == 0)
  }
}
