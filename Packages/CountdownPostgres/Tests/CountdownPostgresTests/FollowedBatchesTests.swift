import CountdownKit
import Foundation
import Testing

@testable import CountdownPostgres

/// The batches `board.follow(_:)` applies: a page's own batch, except that a reload's pages are
/// gathered until it has caught up and then replace the board's rows in one batch; and the pages a
/// board's follower makes of the rows it reads. No server needed.
@Suite struct FollowedBatchesTests {
  static let end = Date(timeIntervalSince1970: 2_000_000_000)

  static func row(_ id: Int64) -> BoardRow<Int64> { BoardRow(id: id, deadline: .until(end)) }

  static func page(_ ids: Int64..., invalid: [Int64] = []) -> FollowerEvent<BoardPage> {
    .upserted(BoardPage(rows: ids.map(row), invalid: invalid))
  }

  @Test func aReloadIsOneBatchOnceItHasCaughtUpWithoutTheRowsDeletedMeanwhile() {
    var batches = FollowedBatches()
    #expect(batches.take(Self.page(1)) == .changed(upserted: [Self.row(1)], removed: []))
    #expect(
      batches.take(Self.page(invalid: [7])) == .changed(upserted: [], removed: [7]),
      "outside a reload, an invalid row is removed")
    #expect(batches.take(.caughtUp(isFirstLoad: true, rows: 1)) == nil)
    #expect(batches.take(.reloading) == nil)
    #expect(batches.take(Self.page(2, 3)) == nil, "a page of the reload waits")
    #expect(batches.take(.removed([2])) == nil, "so does a deletion during the reload")
    #expect(batches.take(.interrupted(PostgresDeadlineError(.unreachable, "cut"))) == nil)
    #expect(batches.take(Self.page(4, invalid: [5])) == nil)
    #expect(batches.take(Self.page(6)) == nil)
    #expect(batches.take(Self.page(invalid: [6])) == nil, "a row gathered, then made invalid: it leaves the reload")
    #expect(
      batches.take(.caughtUp(isFirstLoad: false, rows: 3)) == .reloaded([Self.row(3), Self.row(4)]),
      "every row of the table, the deleted and the invalid ones left out, in the order read")
    #expect(batches.take(.removed([3])) == .removed([3]), "after the reload, changes are their own batches again")
    #expect(batches.take(.caughtUp(isFirstLoad: false, rows: 0)) == nil, "a catch-up replaces nothing")
  }

  @Test func applyingAReloadAloneEmptiesTheBoard() {
    #expect(DeadlineChange.reloading.boardChange() == .reloaded([]))
  }

  /// The rows of a notification, made a board's page, are judged as whole rows are: running, paused,
  /// or removed when they cannot be counted to.
  @Test func aBoardsPageJudgesRowsAsWholeRowsAre() {
    let rows = [
      DeadlineRow(id: 1, endsAt: Self.end),
      DeadlineRow(id: 2, endsAt: nil, pausedRemaining: 90.5),
      DeadlineRow(id: 3, endsAt: nil),
      DeadlineRow(id: 4, endsAt: .distantFuture),
      DeadlineRow(id: 5, endsAt: Date(timeIntervalSince1970: -86_400)),
      DeadlineRow(id: 6, endsAt: Self.end, pausedRemaining: .nan),
      DeadlineRow(id: 7, endsAt: Self.end, pausedRemaining: 1e12),
      DeadlineRow(id: 8, endsAt: Self.end, pausedRemaining: -1),
      DeadlineRow(id: 9, endsAt: Self.end, pausedRemaining: 0),
    ]
    let page = BoardRows(total: .seconds(600)).page(of: rows)
    #expect(page.invalid == [3, 4, 5, 6, 7, 8])
    #expect(
      page.rows == [
        BoardRow(id: 1, deadline: .until(Self.end), total: .seconds(600)),
        BoardRow(id: 2, deadline: .paused(remaining: .milliseconds(90_500)), total: .seconds(600)),
        BoardRow(id: 9, deadline: .paused(remaining: .zero), total: .seconds(600)),
      ])
    #expect(page.change == DeadlineChange.upserted(rows).boardChange(total: .seconds(600)))
    #expect(BoardRows(total: nil).count(of: page) == rows.count)
  }
}
