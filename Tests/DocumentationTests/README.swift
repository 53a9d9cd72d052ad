// swift-format-ignore-file
// The regions below are README.md's code, byte for byte: keep the two in step (.ci/check-doc-blocks).
#if os(Linux)
  import CountdownKit
  import UIKit

  /// The app's ring: a view whose stroke ends at `strokeEnd` (drawing left out).
  final class RingView: UIView {
    /// The fraction of the ring drawn, 0…1.
    var strokeEnd = 1.0
  }

  /// README.md, "In ten lines": `order` is an ``Order``, `label` a `UILabel`, `ring` a ``RingView``.
  @MainActor func readmeInTenLines(order: Order, label: UILabel, ring: RingView) throws -> CountdownHandle<ContinuousClock> {
    // docs: README.md
    let engine = CountdownEngine()                                // one driver for everything
    let handle = try engine.add(until: order.fittingEndsAt, total: .seconds(7_200), display: .coarse) { snapshot in
      label.text = snapshot.value.formatted(.countdown(.coarse))  // "2 hours", "1.5 hours", "45 min"
      ring.strokeEnd = snapshot.progress ?? 0
    } onFinish: {
      label.text = "Window closed"
    }
    handle.extend(by: .seconds(600))                              // exact, from any thread
    // end docs
    return handle
  }
#endif
