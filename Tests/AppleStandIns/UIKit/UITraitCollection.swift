// STAND-IN, NOT APPLE'S UIKIT: the traits of a view's environment, as the documentation's ring examples
// read the display's scale. The traits are fixed. See ../README.md.
#if os(Linux)
  /// The traits of an app's interface, such as the display's scale (stand-in of `UITraitCollection`).
  open class UITraitCollection: @unchecked Sendable {
    /// Traits as the stand-in has them: a 3× display.
    public init() {}
    /// The display scale of the trait collection: pixels per point.
    open var displayScale: CGFloat { 3 }
  }

  extension UIView {
    /// The traits of the view's environment.
    public var traitCollection: UITraitCollection { UITraitCollection() }
  }
#endif
