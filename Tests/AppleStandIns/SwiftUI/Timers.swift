// STAND-IN, NOT APPLE'S SWIFTUI: the views the system counts down by itself, as the documentation's
// widget and Live Activity examples use them. Nothing counts. See ../README.md.
#if os(Linux)
  extension Text {
    /// A timer the system counts through `timerInterval` by itself, frozen at `pauseTime` if given.
    public init(
      timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true
    ) {
      self.init(verbatim: "\(timerInterval)")
    }
  }

  /// The label a date-driven progress view shows (stand-in of SwiftUI's `DefaultDateProgressLabel`).
  public struct DefaultDateProgressLabel: View {
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  /// A progress bar (stand-in of SwiftUI's `ProgressView`).
  public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    /// Primitive.
    public var body: Never { fatalError("A primitive stand-in view has no body") }
  }

  extension ProgressView where Label == EmptyView, CurrentValueLabel == DefaultDateProgressLabel {
    /// A bar the system moves through `timerInterval` by itself.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {}
  }

  extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// A bar at `value` of `total`.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {}
  }
#endif
