// STAND-IN, NOT APPLE'S SWIFTUI: the environment values the documentation's examples read (the display's
// scale, the scene's phase). The values are fixed. See ../README.md.
#if os(Linux)
  /// A collection of environment values propagated through a view hierarchy (stand-in of SwiftUI's
  /// `EnvironmentValues`).
  public struct EnvironmentValues {
    /// Environment values as the stand-in has them: a 3× display, an active scene.
    public init() {}
    /// The display scale of this environment: pixels per point.
    public var displayScale: CGFloat = 3
    /// The current phase of the scene.
    public var scenePhase: ScenePhase = .active
  }

  /// An indication of a scene's operational state (stand-in of SwiftUI's `ScenePhase`).
  public enum ScenePhase: Comparable, Hashable, Sendable {
    /// The scene isn't currently visible in the UI.
    case background
    /// The scene is in the foreground but should pause its work.
    case inactive
    /// The scene is in the foreground and interactive.
    case active
  }

  /// A property wrapper that reads a value from a view's environment (stand-in of SwiftUI's
  /// `Environment`).
  @propertyWrapper public struct Environment<Value>: DynamicProperty {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    /// A property that reads the environment value at `keyPath`.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    /// The current value of the environment property.
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
  }
#endif
