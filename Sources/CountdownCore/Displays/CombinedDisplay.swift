/// Two displays read together: the value is a pair, and it changes when either part changes.
///
/// ```swift
/// // The time left and the colour of the ring, delivered together.
/// let display = RoundedDisplay.seconds.combined(with: .phases(Color.green, [.seconds(10): .red]))
/// ```
public struct CombinedDisplay<First: CountdownDisplay, Second: CountdownDisplay>: CountdownDisplay {
  /// The values of both displays.
  public struct Value: Equatable, Sendable {
    /// The first display's value.
    public var first: First.Value
    /// The second display's value.
    public var second: Second.Value

    /// A pair of values.
    public init(first: First.Value, second: Second.Value) {
      self.first = first
      self.second = second
    }
  }

  /// The first display.
  public let first: First
  /// The second display.
  public let second: Second

  /// A display of both `first` and `second`.
  public init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Both values.
  public func value(remaining: Duration) -> Value {
    Value(first: first.value(remaining: remaining), second: second.value(remaining: remaining))
  }

  /// The sooner of the two next changes (the larger remaining time).
  public func nextChange(after remaining: Duration) -> Duration? {
    switch (first.nextChange(after: remaining), second.nextChange(after: remaining)) {
    case (let a?, let b?): Swift.max(a, b)
    case (let a?, nil): a
    case (nil, let b?): b
    case (nil, nil): nil
    }
  }

  /// The shorter of the two periods.
  public var period: Duration? {
    switch (first.period, second.period) {
    case (let a?, let b?): Swift.min(a, b)
    case (let a, let b): a ?? b
    }
  }
}

extension CountdownDisplay {
  /// This display and `other` read together.
  public func combined<Other: CountdownDisplay>(with other: Other) -> CombinedDisplay<Self, Other> {
    CombinedDisplay(self, other)
  }
}
