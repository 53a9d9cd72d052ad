// STAND-IN, NOT APPLE'S UIKIT: a view controller, as far as the documentation's examples use it, with
// Apple's signatures. See ../README.md.
#if os(Linux)
  /// An object that manages a view (stand-in of `UIViewController`).
  @MainActor @preconcurrency open class UIViewController {
    /// The controller's root view.
    open var view: UIView! = UIView()

    /// A controller with the view in `nibNameOrNil` of `nibBundleOrNil` (the stand-in loads none).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

    /// A controller from an archive (the stand-in reads none).
    public required init?(coder: NSCoder) { nil }

    /// Called once the view is loaded.
    open func viewDidLoad() {}
  }
#endif
