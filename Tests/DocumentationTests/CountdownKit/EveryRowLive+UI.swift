// swift-format-ignore-file
// The regions below are the UIKit and SwiftUI code of CountdownKit.docc's article on boards that keep
// every row's value, byte for byte: keep the two in step (.ci/check-doc-blocks). No Testing here: its
// UIKit overlay is Apple-only; EveryRowLive.swift runs them against the stand-ins.
#if os(Linux)
  import CountdownKit
  import CountdownTesting
  import Observation
  import SwiftUI
  import UIKit

  /// A grid of lots whose visible cells are reconfigured from each batch.
  @MainActor final class LotsGridController {
    let collectionView = UICollectionView()
    let dataSource: UICollectionViewDiffableDataSource<Int, Order.ID>
    let lots: CountdownBoard<Order.ID, RoundedDisplay, ManualClock>
    private var redrawing: BoardObservation?

    init(lots: CountdownBoard<Order.ID, RoundedDisplay, ManualClock>) {
      self.lots = lots
      dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView)
    }

    func reconfigureVisibleCells() {
      let lots = lots
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/EveryRowLive.md
      redrawing = lots.onChanges { [weak self] changes in
        guard let self else { return }
        let visible = Set(collectionView.indexPathsForVisibleItems.compactMap(dataSource.itemIdentifier(for:)))
        let redraw = changes.ids.filter(visible.contains)
        guard !redraw.isEmpty else { return }
        var snapshot = dataSource.snapshot()
        snapshot.reconfigureItems(redraw)
        dataSource.apply(snapshot, animatingDifferences: false)
      }
      // end docs
    }
  }

  /// Runs the UIKit example against the stand-ins: items 1 to 4, items 1 and 2 visible, rows 2 and 3 on
  /// the board. Returns the items the last applied snapshot reconfigured.
  @MainActor func reconfiguredItemsOfABatch() -> [Order.ID]? {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock, tolerance: .milliseconds(100), drivesItself: false)
    defer { engine.shutdown() }
    let lots = engine.board(of: Order.ID.self, display: RoundedDisplay.seconds, values: .everyRow)
    let controller = LotsGridController(lots: lots)
    var items = NSDiffableDataSourceSnapshot<Int, Order.ID>()
    items.appendItems(Array(1...4))
    controller.dataSource.apply(items)
    controller.collectionView.indexPathsForVisibleItems = [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)]
    controller.reconfigureVisibleCells()
    lots.apply(.upserted([BoardRow(id: 2, deadline: .after(.seconds(5))), BoardRow(id: 3, deadline: .after(.seconds(5)))]))
    engine._serveDue()
    return controller.dataSource.applied.last?.reconfiguredItemIdentifiers
  }

  enum EveryRowLiveArticle {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/EveryRowLive.md
    @MainActor @Observable final class UrgencyHeader {
      private(set) var closing = 0
      @ObservationIgnored private let board: CountdownBoard<Order.ID, PhaseDisplay<Urgency>, ContinuousClock>
      @ObservationIgnored private var counting: BoardObservation?

      init(engine: CountdownEngine<ContinuousClock>, orders: [Order]) {
        let urgency = PhaseDisplay<Urgency>.phases(.calm, [.seconds(1_800): .hurry, .seconds(300): .closing])
        board = engine.board(of: Order.ID.self, display: urgency, values: .everyRow)
        board.apply(.upserted(orders.map { BoardRow(id: $0.id, deadline: .until($0.fittingEndsAt)) }))
        counting = board.onChanges { [weak self] _ in self?.count() }
        count()
      }

      private func count() {
        closing = board.counts.first { $0.value == .closing }?.count ?? 0
      }
    }

    struct OrdersHeader: View {
      let header: UrgencyHeader

      var body: some View {
        Text("\(header.closing) orders close within 5 minutes")
      }
    }
    // end docs
  }
#endif
