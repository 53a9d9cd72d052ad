// STAND-IN, NOT APPLE'S SWIFTUI: the few declarations the documentation's examples use, with Apple's
// signatures, so that those examples compile on Linux. Views here draw nothing. See ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// A view (stand-in of SwiftUI's `View`).
  @MainActor @preconcurrency public protocol View {
    /// The type of view this view is made of.
    associatedtype Body: View
    /// The content of the view.
    @ViewBuilder var body: Body { get }
  }

  extension Never: View {
    /// Primitive views have no body.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// Builds views from closures (stand-in of SwiftUI's `ViewBuilder`).
  @MainActor @resultBuilder public enum ViewBuilder {
    /// No view.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// One view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// Several views.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
      (repeat each Content)
    > {
      TupleView((repeat each content))
    }
    /// The view of an `if` without `else`.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// The first branch of an `if`/`else`.
    public static func buildEither<First: View, Second: View>(first: First) -> ConditionalContent<First, Second> {
      ConditionalContent(storage: .first(first))
    }
    /// The second branch of an `if`/`else`.
    public static func buildEither<First: View, Second: View>(second: Second) -> ConditionalContent<First, Second> {
      ConditionalContent(storage: .second(second))
    }
  }

  extension Optional: View where Wrapped: View {
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// No view.
  public struct EmptyView: View {
    /// No view.
    public init() {}
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// Several views.
  public struct TupleView<T>: View {
    /// The views.
    public var value: T
    /// Several views.
    public init(_ value: T) { self.value = value }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// One of two views.
  public struct ConditionalContent<TrueContent: View, FalseContent: View>: View {
    enum Storage {
      case first(TrueContent)
      case second(FalseContent)
    }
    let storage: Storage
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// A view with a modifier applied.
  public struct ModifiedContent<Content: View>: View {
    let content: Content
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// Text (stand-in of SwiftUI's `Text`).
  public struct Text: View {
    let content: String
    /// Text showing `content`.
    public init(_ content: String) { self.content = content }
    /// Text showing `content` as it is.
    public init(verbatim content: String) { self.content = content }
    /// Text showing `input` formatted by `format`.
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F)
    where F.FormatInput: Equatable, F.FormatOutput == String {
      self.content = format.format(input)
    }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// A title and a value (stand-in of SwiftUI's `LabeledContent`).
  public struct LabeledContent: View {
    /// A title and a value, both text.
    public init<Title: StringProtocol, Value: StringProtocol>(_ title: Title, value: Value) {}
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// A button (stand-in of SwiftUI's `Button`).
  public struct Button: View {
    let title: String
    let action: () -> Void
    /// A button titled `title` that runs `action`.
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
      self.title = String(title)
      self.action = action
    }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// Views stacked vertically (stand-in of SwiftUI's `VStack`).
  public struct VStack<Content: View>: View {
    let content: Content
    /// A stack of the views `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// A colour (stand-in of SwiftUI's `Color`).
  public struct Color: View, ShapeStyle, Sendable {
    let name: String
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
    /// Red.
    public static let red = Color(name: "red")
    /// Orange.
    public static let orange = Color(name: "orange")
    /// Green.
    public static let green = Color(name: "green")
    /// Secondary content.
    public static let secondary = Color(name: "secondary")
    /// Primary content.
    public static let primary = Color(name: "primary")
  }

  /// Something a shape can be filled or stroked with.
  public protocol ShapeStyle: Sendable {}

  /// An angle (stand-in of SwiftUI's `Angle`).
  public struct Angle: Sendable {
    /// The angle in degrees.
    public var degrees: Double
    /// An angle of `degrees` degrees.
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
  }

  /// The end of a stroked line.
  public enum CGLineCap: Sendable {
    /// Square, at the end.
    case butt
    /// Round.
    case round
    /// Square, past the end.
    case square
  }

  /// How a shape is stroked (stand-in of SwiftUI's `StrokeStyle`).
  public struct StrokeStyle: Sendable {
    /// The line width.
    public var lineWidth: CGFloat
    /// The end of the line.
    public var lineCap: CGLineCap
    /// A stroke style.
    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt) {
      self.lineWidth = lineWidth
      self.lineCap = lineCap
    }
  }

  /// A shape (stand-in of SwiftUI's `Shape`).
  public protocol Shape: View {}

  extension Shape {
    /// The shape inset by `amount`.
    public func inset(by amount: CGFloat) -> Self { self }
    /// The part of the shape's outline from `from` to `to` (fractions of its length).
    public func trim(from: CGFloat = 0, to: CGFloat = 1) -> Self { self }
    /// The outline stroked with `content`.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
    /// The outline stroked in the foreground style.
    public func stroke(style: StrokeStyle) -> ModifiedContent<Self> { ModifiedContent(content: self) }
  }

  /// A circle (stand-in of SwiftUI's `Circle`).
  public struct Circle: Shape {
    /// A circle.
    public init() {}
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  extension View {
    /// Digits of equal width.
    public func monospacedDigit() -> ModifiedContent<Self> { ModifiedContent(content: self) }
    /// The label VoiceOver reads.
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
    /// Rotated by `angle`.
    public func rotationEffect(_ angle: Angle) -> ModifiedContent<Self> { ModifiedContent(content: self) }
    /// Scaled by `x` and `y`.
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1) -> ModifiedContent<Self> { ModifiedContent(content: self) }
    /// In a frame of the given size.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
    /// The foreground colour.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self> { ModifiedContent(content: self) }
    /// Runs `action` when the view appears.
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
    /// Runs `action` when `value` changes.
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void)
      -> ModifiedContent<Self>
    { ModifiedContent(content: self) }
    /// Runs `action` while the view is shown; cancels it when the view goes away.
    public func task(
      priority: TaskPriority = .userInitiated,
      _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedContent<Self> { ModifiedContent(content: self) }
  }

  /// State a view owns (stand-in of SwiftUI's `State`).
  @propertyWrapper public struct State<Value>: DynamicProperty {
    private final class Box {
      var value: Value
      init(_ value: Value) { self.value = value }
    }
    private let box: Box

    /// State starting at `value`.
    public init(wrappedValue value: Value) { box = Box(value) }
    /// State starting at `value`.
    public init(initialValue value: Value) { box = Box(value) }

    /// The current value.
    public var wrappedValue: Value {
      get { box.value }
      nonmutating set { box.value = newValue }
    }
  }

  /// A property a view reads its data through.
  public protocol DynamicProperty {}
#endif
