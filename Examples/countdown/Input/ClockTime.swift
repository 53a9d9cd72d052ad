/// A time of day on a 24-hour clock.
struct ClockTime: Equatable, Sendable {
  /// 0…23.
  var hour: Int
  /// 0…59.
  var minute: Int
  /// 0…59.
  var second: Int
  /// The fraction of the second, in nanoseconds.
  var nanosecond: Int

  /// The time `hour:minute:second.nanosecond`.
  init(hour: Int, minute: Int, second: Int = 0, nanosecond: Int = 0) {
    self.hour = hour
    self.minute = minute
    self.second = second
    self.nanosecond = nanosecond
  }

  /// 00:00, the start of a day.
  static let midnight = ClockTime(hour: 0, minute: 0)
}
