import CountdownKit
import Foundation
import Testing

@testable import CountdownPostgres

/// The batches `board.follow(_:)` applies: a change's own batch, except that a reload's pages are
/// gathered until it has caught up and then replace the board's rows in one batch. No server needed.
@Suite struct FollowedBatchesTests {
  static let end = Date(timeIntervalSince1970: 2_000_000_000)

  static func row(_ id: Int64) -> DeadlineRow { DeadlineRow(id: id, endsAt: end) }

  @Test func aReloadIsOneBatchOnceItHasCaughtUpWithoutTheRowsDeletedMeanwhile() {
    var batches = FollowedBatches(total: nil)
    #expect(
      batches.take(.upserted([Self.row(1)]))
        == .changed(upserted: [BoardRow(id: 1, deadline: .until(Self.end))], removed: []))
    #expect(batches.take(.caughtUp(isFirstLoad: true, rows: 1)) == nil)
    #expect(batches.take(.reloading) == nil)
    #expect(batches.take(.upserted([Self.row(2), Self.row(3)])) == nil, "a page of the reload waits")
    #expect(batches.take(.removed([2])) == nil, "so does a deletion during the reload")
    #expect(batches.take(.upserted([Self.row(4), DeadlineRow(id: 5, endsAt: nil)])) == nil)
    #expect(
      batches.take(.caughtUp(isFirstLoad: false, rows: 3))
        == .reloaded([BoardRow(id: 3, deadline: .until(Self.end)), BoardRow(id: 4, deadline: .until(Self.end))]),
      "every row of the table, the deleted and the invalid ones left out")
    #expect(batches.take(.removed([3])) == .removed([3]), "after the reload, changes are their own batches again")
  }

  @Test func applyingAReloadAloneEmptiesTheBoard() {
    #expect(DeadlineChange.reloading.boardChange() == .reloaded([]))
  }
}
