// swift-format-ignore-file
// The region below is code of CountdownCore.docc's Rings article, byte for byte: keep the two in step
// (.ci/check-doc-blocks). Not in Rings.swift: a file that imports UIKit must not import Testing (its
// UIKit overlay exists only on Apple platforms).
#if os(Linux)
  import CountdownCore
  import UIKit

  /// A ring drawn with Core Animation layers, as the Rings article draws it.
  func drawRing(_ ring: RingGeometry, progressLayer: CAShapeLayer, dotLayer: CALayer) {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/Rings.md
    let path = UIBezierPath(
      arcCenter: CGPoint(x: ring.center.x, y: ring.center.y), radius: ring.radius,
      startAngle: ring.startAngle, endAngle: ring.startAngle + (ring.isClockwise ? 2 : -2) * .pi,
      clockwise: ring.isClockwise)
    CATransaction.begin()
    CATransaction.setDisableActions(true)  // or each value set starts a 0.25 s implicit animation
    progressLayer.path = path.cgPath
    progressLayer.lineWidth = ring.lineWidth
    progressLayer.strokeEnd = ring.strokeEnd
    dotLayer.position = CGPoint(x: ring.dotPosition.x, y: ring.dotPosition.y)
    CATransaction.commit()
    // end docs
  }
#endif
