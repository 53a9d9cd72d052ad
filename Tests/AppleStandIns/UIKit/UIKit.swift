// STAND-IN, NOT APPLE'S UIKIT: the few declarations the documentation's examples use, with Apple's
// signatures, so that those examples compile on Linux. Nothing here draws. Core Animation's
// declarations are in the QuartzCore stand-in, which this one re-exports as UIKit does. See
// ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does
  @_exported public import QuartzCore

  /// A view (stand-in of `UIView`).
  @MainActor @preconcurrency open class UIView {
    /// The view's layer.
    public let layer = CALayer()
    /// What VoiceOver reads as the view's value.
    open var accessibilityValue: String?
    /// The view's frame in its superview.
    open var frame: CGRect
    /// The views inside this one, in order.
    open private(set) var subviews: [UIView] = []
    /// A view with `frame`.
    public init(frame: CGRect) { self.frame = frame }
    /// A view from an archive (the stand-in reads none).
    public required init?(coder: NSCoder) { nil }
    /// A view with an empty frame.
    public convenience init() { self.init(frame: .zero) }
    /// The view's own coordinate space: its frame's size at the origin.
    open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
    /// Adds `view` on top of the subviews.
    open func addSubview(_ view: UIView) { subviews.append(view) }
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
    /// Green.
    open class var systemGreen: UIColor { UIColor(name: "systemGreen") }
    /// The colour as a Core Graphics colour.
    open var cgColor: CGColor { CGColor() }
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

  /// A path made of lines and arcs (stand-in of `UIBezierPath`).
  open class UIBezierPath {
    /// An arc of a circle.
    public init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {}
    /// The path as a Core Graphics path.
    open var cgPath: CGPath { CGPath() }
  }
#endif
