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
  ///
  /// As strict as Core Animation about implicit animations: setting an animatable property (here
  /// `position`, `bounds`, `transform`, `backgroundColor`, `cornerRadius`, `opacity` and the shape
  /// layer's) outside a transaction that disables actions adds its implicit animation, a 0.25 s
  /// `CABasicAnimation` under the property's name, as a standalone layer does on Apple platforms. A test
  /// asserts that none was added with `animation(forKey: "strokeEnd") == nil`. (A view's backing layer,
  /// whose actions UIKit disables, is a plain layer here: do not assert on it.)
  open class CALayer {
    /// The position of the layer's anchor point (its centre) in its superlayer.
    open var position = CGPoint.zero { didSet { implicitAnimation(of: "position", from: oldValue) } }
    /// The layer's own coordinate space.
    open var bounds = CGRect.zero { didSet { implicitAnimation(of: "bounds", from: oldValue) } }
    /// The layer's transform, about its anchor point.
    open var transform = CATransform3DIdentity { didSet { implicitAnimation(of: "transform", from: oldValue) } }
    /// The background colour.
    open var backgroundColor: CGColor? { didSet { implicitAnimation(of: "backgroundColor", from: oldValue as Any) } }
    /// The radius of the rounded corners.
    open var cornerRadius: CGFloat = 0 { didSet { implicitAnimation(of: "cornerRadius", from: oldValue) } }
    /// The opacity, 0…1.
    open var opacity: Float = 1 { didSet { implicitAnimation(of: "opacity", from: oldValue) } }
    /// The layers drawn on top of this one.
    open private(set) var sublayers: [CALayer]?
    private var animations: [(key: String, animation: CAAnimation)] = []
    /// A layer.
    public init() {}
    /// Adds `layer` on top of the sublayers.
    open func addSublayer(_ layer: CALayer) { sublayers = (sublayers ?? []) + [layer] }
    /// Runs `animation` under `key`, replacing the one with the same key.
    open func add(_ animation: CAAnimation, forKey key: String?) {
      let key = key ?? "\(ObjectIdentifier(animation))"
      animations.removeAll { $0.key == key }
      animations.append((key, animation))
    }
    /// Removes every animation.
    open func removeAllAnimations() { animations = [] }
    /// The keys of the layer's animations, in the order they were added.
    open func animationKeys() -> [String]? { animations.isEmpty ? nil : animations.map(\.key) }
    /// The animation added under `key`.
    open func animation(forKey key: String) -> CAAnimation? { animations.first { $0.key == key }?.animation }
    /// `t` from `layer`'s time space (the global one when `nil`) in this layer's.
    open func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval { t }

    /// Adds the implicit animation of a change of `key`, as Core Animation does, unless the current
    /// transaction disables actions.
    func implicitAnimation(of key: String, from oldValue: Any) {
      guard !CATransaction.disableActions() else { return }
      let animation = CABasicAnimation(keyPath: key)
      animation.fromValue = oldValue
      animation.duration = CATransaction.animationDuration()
      add(animation, forKey: key)
    }
  }

  /// A layer that draws a path (stand-in of Core Animation's `CAShapeLayer`); its properties animate
  /// implicitly as `CALayer`'s do.
  open class CAShapeLayer: CALayer {
    /// The path drawn.
    open var path: CGPath? { didSet { implicitAnimation(of: "path", from: oldValue as Any) } }
    /// The width of the stroke.
    open var lineWidth: CGFloat = 1 { didSet { implicitAnimation(of: "lineWidth", from: oldValue) } }
    /// The fraction of the path stroked.
    open var strokeEnd: CGFloat = 1 { didSet { implicitAnimation(of: "strokeEnd", from: oldValue) } }
    /// The colour of the stroke.
    open var strokeColor: CGColor? { didSet { implicitAnimation(of: "strokeColor", from: oldValue as Any) } }
    /// The colour the path is filled with.
    open var fillColor: CGColor? { didSet { implicitAnimation(of: "fillColor", from: oldValue as Any) } }
  }

  /// A 4×4 transform of a layer (stand-in of `CATransform3D`).
  public struct CATransform3D: Sendable {
    /// Row 1.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// Row 2.
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// Row 3.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// Row 4.
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
  }

  /// The identity transform (stand-in of `CATransform3DIdentity`).
  public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0,
    m43: 0, m44: 1)

  /// A rotation of `angle` radians about the vector (`x`, `y`, `z`) (stand-in of
  /// `CATransform3DMakeRotation`; here only about the z axis, which is what the examples turn).
  public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    precondition(x == 0 && y == 0 && z != 0, "The stand-in rotates about the z axis only")
    var transform = CATransform3DIdentity
    let turn = z > 0 ? angle : -angle
    (transform.m11, transform.m12, transform.m21, transform.m22) = (cos(turn), sin(turn), -sin(turn), cos(turn))
    return transform
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

  /// Groups layer changes into one transaction (stand-in of `CATransaction`), per thread, as Core
  /// Animation does.
  ///
  /// `begin()`/`commit()` nest explicit transactions; outside them, changes belong to the thread's
  /// implicit transaction, which Core Animation commits at the end of the run loop's turn and which lasts
  /// here until `flush()`. `setDisableActions(true)` applies to the innermost transaction open (the
  /// implicit one outside any `begin()`), and `disableActions()` reads it, as on Apple platforms.
  open class CATransaction {
    /// What a transaction was told; `nil` for what it was not told.
    private final class State {
      var explicit: [Bool?] = []
      var implicit: Bool?
    }

    /// The calling thread's transactions.
    private static var state: State {
      let key = "QuartzCoreStandIn.CATransaction"
      if let state = Thread.current.threadDictionary[key] as? State { return state }
      let state = State()
      Thread.current.threadDictionary[key] = state
      return state
    }

    /// Begins a transaction.
    open class func begin() { state.explicit.append(nil) }
    /// Commits the transaction's changes.
    open class func commit() {
      let state = state
      precondition(!state.explicit.isEmpty, "CATransaction.commit() without a begin()")
      state.explicit.removeLast()
    }
    /// Commits the implicit transaction (at the end of the run loop's turn on Apple platforms), once no
    /// explicit transaction is open.
    open class func flush() {
      let state = state
      if state.explicit.isEmpty { state.implicit = nil }
    }
    /// Whether property changes in the transaction run their implicit animations.
    open class func setDisableActions(_ flag: Bool) {
      let state = state
      if state.explicit.isEmpty { state.implicit = flag } else { state.explicit[state.explicit.count - 1] = flag }
    }
    /// Whether property changes made now are kept from running their implicit animations: the innermost
    /// transaction's word on it, false if none said.
    open class func disableActions() -> Bool {
      let state = state
      return state.explicit.reversed().lazy.compactMap { $0 }.first ?? state.implicit ?? false
    }
    /// How long implicit animations last: 0.25 s.
    open class func animationDuration() -> CFTimeInterval { 0.25 }
  }

  /// A timer synchronized with the display's refresh (stand-in of `CADisplayLink`).
  ///
  /// Apple's is made with a target and an Objective-C selector, which Linux cannot declare; the
  /// stand-in's only initializer is a `package` one for the package's tests, not Apple's API.
  open class CADisplayLink {
    /// When the last frame was displayed, on Core Animation's clock.
    open private(set) var timestamp: CFTimeInterval
    /// When the next frame will be displayed, on Core Animation's clock.
    open private(set) var targetTimestamp: CFTimeInterval
    /// Whether the link stops calling its target.
    open var isPaused = false
    /// A link about to show the frame due at `targetTimestamp` (a test hook, not Apple's API).
    package init(targetTimestamp: CFTimeInterval) {
      self.targetTimestamp = targetTimestamp
      timestamp = targetTimestamp - 1.0 / 60
    }
    /// Stops the link for good.
    open func invalidate() {}
  }
#endif
