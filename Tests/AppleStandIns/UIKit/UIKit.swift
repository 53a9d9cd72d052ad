// STAND-IN, NOT APPLE'S UIKIT (nor QuartzCore or CoreGraphics, which UIKit re-exports): the few
// declarations the documentation's examples use, with Apple's signatures, so that those examples
// compile on Linux. Nothing here draws. See ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// A view (stand-in of `UIView`).
  @MainActor @preconcurrency open class UIView {
    /// The view's layer.
    public let layer = CALayer()
    /// A view.
    public init() {}
  }

  /// A colour (stand-in of `UIColor`).
  open class UIColor: @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
    /// The colour of primary text.
    open class var label: UIColor { UIColor(name: "label") }
    /// The colour of secondary text.
    open class var secondaryLabel: UIColor { UIColor(name: "secondaryLabel") }
    /// Red.
    open class var systemRed: UIColor { UIColor(name: "systemRed") }
  }

  /// A text label (stand-in of `UILabel`).
  @MainActor open class UILabel: UIView {
    /// The text shown.
    open var text: String?
    /// The colour of the text.
    open var textColor: UIColor?
  }

  /// A cell of a collection view (stand-in of `UICollectionViewCell`).
  @MainActor open class UICollectionViewCell: UIView {
    /// The view that holds the cell's content.
    public let contentView = UIView()
    /// Called before the cell is reused for another item.
    open func prepareForReuse() {}
  }

  /// A path (stand-in of CoreGraphics' `CGPath`).
  open class CGPath {}

  /// A path made of lines and arcs (stand-in of `UIBezierPath`).
  open class UIBezierPath {
    /// An arc of a circle.
    public init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {}
    /// The path as a Core Graphics path.
    open var cgPath: CGPath { CGPath() }
  }

  /// A layer (stand-in of Core Animation's `CALayer`).
  open class CALayer {
    /// The position of the layer's anchor point.
    open var position = CGPoint.zero
    /// A layer.
    public init() {}
  }

  /// A layer that draws a path (stand-in of Core Animation's `CAShapeLayer`).
  open class CAShapeLayer: CALayer {
    /// The path drawn.
    open var path: CGPath?
    /// The width of the stroke.
    open var lineWidth: CGFloat = 1
    /// The fraction of the path stroked.
    open var strokeEnd: CGFloat = 1
  }
#endif
