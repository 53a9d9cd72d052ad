/// One entry of a change schedule: the moment a display's value changes, and the value from then on.
///
/// `At` is the type of the moment: a monotonic instant for ``Countdown/changes(of:from:through:)``,
/// a `Date` for the wall-clock forms that feed WidgetKit timelines and notification triggers.
public struct CountdownChange<At: Sendable, Value: Equatable & Sendable>: Sendable {
  /// The moment the value starts to be shown (the first entry of a schedule: its start).
  public var at: At
  /// The value shown from ``at`` until the next entry's moment.
  public var value: Value

  /// An entry showing `value` from `at` on.
  public init(at: At, value: Value) {
    self.at = at
    self.value = value
  }
}

extension CountdownChange: Equatable where At: Equatable {}
extension CountdownChange: Hashable where At: Hashable, Value: Hashable {}
