// STAND-IN, NOT APPLE'S QUARTZCORE (nor the few CoreFoundation and CoreGraphics types it uses): the
// declarations the documentation's examples use, with Apple's signatures, so that those examples
// compile on Linux. Nothing here draws or animates. See ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// Seconds (stand-in of CoreFoundation's `CFTimeInterval`).
  public typealias CFTimeInterval = Double

  /// The current time of Core Animation's clock, in seconds (stand-in of `CACurrentMediaTime()`): host
  /// time since boot, which stops while the machine sleeps. Here: the process's uptime.
  public func CACurrentMediaTime() -> CFTimeInterval { ProcessInfo.processInfo.systemUptime }

  /// A path (stand-in of CoreGraphics' `CGPath`).
  open class CGPath {
    /// An empty path (the stand-ins make them; apps get them from a path builder).
    public init() {}
  }

  /// A colour (stand-in of CoreGraphics' `CGColor`).
  open class CGColor {
    /// A colour (the stand-ins make them; apps get them from a colour).
    public init() {}
  }

  /// A layer (stand-in of Core Animation's `CALayer`).
  open class CALayer {
    /// The position of the layer's anchor point.
    open var position = CGPoint.zero
    private var animations: [String: CAAnimation] = [:]
    /// The layers drawn on top of this one.
    open private(set) var sublayers: [CALayer]?
    /// A layer.
    public init() {}
    /// Adds `layer` on top of the sublayers.
    open func addSublayer(_ layer: CALayer) { sublayers = (sublayers ?? []) + [layer] }
    /// Runs `animation` under `key`, replacing the one with the same key.
    open func add(_ animation: CAAnimation, forKey key: String?) {
      animations[key ?? "\(animations.count)"] = animation
    }
    /// Removes every animation.
    open func removeAllAnimations() { animations = [:] }
    /// The keys of the layer's animations.
    open func animationKeys() -> [String]? { animations.isEmpty ? nil : animations.keys.sorted() }
    /// The animation added under `key`.
    open func animation(forKey key: String) -> CAAnimation? { animations[key] }
    /// `t` from `layer`'s time space (the global one when `nil`) in this layer's.
    open func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval { t }
  }

  /// A layer that draws a path (stand-in of Core Animation's `CAShapeLayer`).
  open class CAShapeLayer: CALayer {
    /// The path drawn.
    open var path: CGPath?
    /// The width of the stroke.
    open var lineWidth: CGFloat = 1
    /// The fraction of the path stroked.
    open var strokeEnd: CGFloat = 1
    /// The colour of the stroke.
    open var strokeColor: CGColor?
    /// The colour the path is filled with.
    open var fillColor: CGColor?
  }

  /// How an animation's timing is shaped (stand-in of `CAMediaTimingFunction`).
  open class CAMediaTimingFunction {
    /// A predefined timing function.
    public init(name: CAMediaTimingFunctionName) {}
  }

  /// The names of the predefined timing functions (stand-in of `CAMediaTimingFunctionName`).
  public struct CAMediaTimingFunctionName: Hashable, Sendable {
    let rawValue: String
    /// Constant speed.
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// The default: slow at both ends.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
  }

  /// What an animation shows outside its active time (stand-in of `CAMediaTimingFillMode`).
  public struct CAMediaTimingFillMode: Hashable, Sendable {
    let rawValue: String
    /// Nothing: the model value.
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The end value after the animation ends.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The start value before the animation begins.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both.
    public static let both = CAMediaTimingFillMode(rawValue: "both")
  }

  /// An animation (stand-in of `CAAnimation`).
  open class CAAnimation {
    /// When the animation begins, in the time space of the layer it is added to; 0 for now.
    open var beginTime: CFTimeInterval = 0
    /// How long one run lasts, in seconds.
    open var duration: CFTimeInterval = 0
    /// How the animation's timing is shaped.
    open var timingFunction: CAMediaTimingFunction?
    /// What it shows outside its active time.
    open var fillMode: CAMediaTimingFillMode = .removed
    /// Whether it is removed from the layer once it ends.
    open var isRemovedOnCompletion = true
    /// An animation.
    public init() {}
  }

  /// An animation of one layer property (stand-in of `CAPropertyAnimation`).
  open class CAPropertyAnimation: CAAnimation {
    /// The animated property's key path, e.g. `"strokeEnd"`.
    open var keyPath: String?
    /// An animation of the property at `path`.
    public convenience init(keyPath path: String?) {
      self.init()
      keyPath = path
    }
  }

  /// An animation from one value to another (stand-in of `CABasicAnimation`).
  open class CABasicAnimation: CAPropertyAnimation {
    /// The value at the start.
    open var fromValue: Any?
    /// The value at the end.
    open var toValue: Any?
  }

  /// Groups layer changes into one transaction (stand-in of `CATransaction`).
  open class CATransaction {
    /// Begins a transaction.
    open class func begin() {}
    /// Commits the transaction's changes.
    open class func commit() {}
    /// Whether property changes in the transaction run their implicit animations.
    open class func setDisableActions(_ flag: Bool) {}
  }

  /// A timer synchronized with the display's refresh (stand-in of `CADisplayLink`).
  open class CADisplayLink {
    /// When the last frame was displayed, on Core Animation's clock.
    open var timestamp: CFTimeInterval { CACurrentMediaTime() }
    /// When the next frame will be displayed, on Core Animation's clock.
    open var targetTimestamp: CFTimeInterval { CACurrentMediaTime() + 1.0 / 60 }
    /// Whether the link stops calling its target.
    open var isPaused = false
    /// Stops the link for good.
    open func invalidate() {}
  }
#endif
