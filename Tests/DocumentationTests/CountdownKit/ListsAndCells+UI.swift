// swift-format-ignore-file
// The regions below are the UIKit and SwiftUI code of CountdownKit.docc's Lists and Cells article,
// byte for byte: keep the two in step (.ci/check-doc-blocks). No Testing here: its UIKit overlay is
// Apple-only.
#if os(Linux)
  import CountdownKit
  import SwiftUI
  import UIKit

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
  /// An order's row: its title, the time left ("2 hours", "1.5 hours", "45 min") and a ring of its window.
  final class OrderCell: UICollectionViewListCell {
    private let ring = CAShapeLayer()
    private var slot: CountdownSlot<Order.ID, AdaptiveDisplay, ContinuousClock>?

    override init(frame: CGRect) {
      super.init(frame: frame)
      let ringView = UIView(frame: CGRect(x: 0, y: 0, width: 32, height: 32))
      ring.path = UIBezierPath(
        arcCenter: CGPoint(x: 16, y: 16), radius: 14, startAngle: -.pi / 2, endAngle: 1.5 * .pi, clockwise: true
      ).cgPath
      ring.lineWidth = 4
      ring.fillColor = nil
      ring.strokeColor = UIColor.systemGreen.cgColor
      ringView.layer.addSublayer(ring)
      accessories = [.customView(configuration: .init(customView: ringView, placement: .trailing()))]
    }

    required init?(coder: NSCoder) { nil }

    func show(_ order: Order, on board: CountdownBoard<Order.ID, AdaptiveDisplay, ContinuousClock>) {
      let slot = self.slot ?? board.slot()
      self.slot = slot
      // As many steps as the ring has pixels around: it moves as smoothly as the eye can see, no more.
      let steps = RingGeometry.visibleSteps(diameter: 32, lineWidth: 4, scale: traitCollection.displayScale)
      slot.bind(to: order.id, progressSteps: steps) { [weak self] snapshot in
        guard let self else { return }
        var content = defaultContentConfiguration()
        content.text = order.title
        content.secondaryText = snapshot.isFinished ? "Closed" : snapshot.value.formatted(.countdown(.coarse))
        contentConfiguration = content
        CATransaction.begin()
        CATransaction.setDisableActions(true)  // each step drawn as it is, with no implicit animation
        ring.strokeEnd = snapshot.progress ?? 0
        CATransaction.commit()
      }
    }
  }

  /// The list of orders: every row live, no timer anywhere.
  final class OrdersViewController: UIViewController {
    private let board: CountdownBoard<Order.ID, AdaptiveDisplay, ContinuousClock>
    private var orders: [Order.ID: Order] = [:]
    private var dataSource: UICollectionViewDiffableDataSource<Int, Order.ID>?

    init(engine: CountdownEngine<ContinuousClock>) {
      board = engine.board(of: Order.ID.self, display: .coarse)
      super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
      super.viewDidLoad()
      let layout = UICollectionViewCompositionalLayout.list(using: .init(appearance: .plain))
      let list = UICollectionView(frame: view.bounds, collectionViewLayout: layout)
      view.addSubview(list)
      let cells = UICollectionView.CellRegistration<OrderCell, Order.ID> { [weak self] cell, _, id in
        guard let self, let order = orders[id] else { return }
        cell.show(order, on: board)
      }
      dataSource = UICollectionViewDiffableDataSource(collectionView: list) { list, indexPath, id in
        list.dequeueConfiguredReusableCell(using: cells, for: indexPath, item: id)
      }
    }

    /// Shows `orders`, on a first load and on every refresh: one batch for the board, one for the list.
    func show(_ orders: [Order]) {
      self.orders = Dictionary(orders.map { ($0.id, $0) }) { $1 }
      let rows = orders.map { BoardRow(id: $0.id, deadline: .until($0.fittingEndsAt), total: .seconds(7_200)) }
      board.apply(.reloaded(rows))
      var items = NSDiffableDataSourceSnapshot<Int, Order.ID>()
      items.appendSections([0])
      items.appendItems(orders.map(\.id))
      dataSource?.apply(items)
    }
  }
  // end docs

  enum ListsAndCellsArticle {
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
    struct OrderRow: View {
      let order: Order
      @State private var countdown: CountdownRowModel<Order.ID, AdaptiveDisplay, ContinuousClock>

      init(order: Order, board: CountdownBoard<Order.ID, AdaptiveDisplay, ContinuousClock>) {
        self.order = order
        _countdown = State(initialValue: CountdownRowModel(board: board))
      }

      var body: some View {
        LabeledContent(order.title, value: timeLeft)
          .onAppear { countdown.show(order.id) }
          .onDisappear { countdown.hide() }
          .onChange(of: order.id) { countdown.show(order.id) }
      }

      private var timeLeft: String {
        guard let left = countdown.value else { return "" }
        return countdown.isFinished ? "Closed" : left.formatted(.countdown(.coarse))
      }
    }
    // end docs
  }
#endif
