// swift-format-ignore-file
// The regions below are the UIKit and SwiftUI code of CountdownKit.docc's Lists and Cells article,
// byte for byte: keep the two in step (.ci/check-doc-blocks). No Testing here: its UIKit overlay is
// Apple-only.
#if os(Linux)
  import CountdownKit
  import SwiftUI
  import UIKit

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/ListsAndCells.md
  final class OrderCell: UICollectionViewCell {
    private var slot: CountdownSlot<Order.ID, AdaptiveDisplay, ContinuousClock>?
    private let timeLabel = UILabel()

    func configure(with order: Order, board: CountdownBoard<Order.ID, AdaptiveDisplay, ContinuousClock>) {
      let slot = self.slot ?? board.slot()
      self.slot = slot
      timeLabel.text = nil
      slot.bind(to: order.id) { [weak self] snapshot in
        self?.timeLabel.text = snapshot.value.formatted(.countdown(.coarse))
        self?.timeLabel.textColor = snapshot.isFinished ? .secondaryLabel : .label
      }
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
