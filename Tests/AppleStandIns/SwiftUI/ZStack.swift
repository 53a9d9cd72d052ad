// STAND-IN, NOT APPLE'S SWIFTUI: views stacked on top of each other and placed by position, as the
// documentation's ring examples draw a dot over a ring. Nothing is laid out. See ../README.md.
#if os(Linux)
  /// An alignment in both axes (stand-in of SwiftUI's `Alignment`).
  public struct Alignment: Equatable, Sendable {
    let name: String
    /// The centre in both axes.
    public static let center = Alignment(name: "center")
  }

  /// A view that overlays its subviews, aligning them in both axes (stand-in of SwiftUI's `ZStack`).
  public struct ZStack<Content: View>: View {
    let content: Content
    /// A stack of the views `content` builds, each on top of the one before.
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  extension View {
    /// The view with its centre at (`x`, `y`) in its parent's coordinate space.
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> ModifiedContent<Self> { ModifiedContent(content: self) }
  }
#endif
