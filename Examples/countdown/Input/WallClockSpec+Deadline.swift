import Foundation

extension WallClockSpec {
  /// The instant this reading stands for at `now`, by Foundation's Gregorian calendar in the
  /// reading's zone (`calendar`'s zone for ``Zone/local``):
  /// - ``Day/next``: today at the time if that is after `now`, otherwise tomorrow;
  /// - ``Day/weekday(_:)`` and a date without a year: the first such day on which the time is after
  ///   `now` (`friday` on a Friday is a week ahead; `dec 25` after Christmas is next year's);
  /// - ``Day/today``, ``Day/tomorrow`` and a date with a year: that day, even if it has passed;
  /// - a time that a daylight-saving change skips is moved forward by the length of the gap (02:30
  ///   on the night clocks go from 02:00 to 03:00 is 03:30); a time that happens twice, when clocks
  ///   go back, is the first of the two.
  ///
  /// - Returns: `nil` when the zone is unknown or the calendar cannot form the date.
  func deadline(now: Date, calendar: Calendar) -> Date? {
    var gregorian = Calendar(identifier: .gregorian)
    switch zone {
    case .local: gregorian.timeZone = calendar.timeZone
    case .offset(let seconds):
      guard let zone = TimeZone(secondsFromGMT: seconds) else { return nil }
      gregorian.timeZone = zone
    case .identifier(let identifier):
      guard let zone = TimeZone(identifier: identifier) else { return nil }
      gregorian.timeZone = zone
    }
    let today = gregorian.dateComponents([.year, .month, .day], from: now)
    guard let year = today.year, let month = today.month, let dayOfMonth = today.day else { return nil }
    let time = time ?? .midnight
    /// `time` on the day `offset` days after today.
    func onDay(_ offset: Int) -> Date? {
      instant(gregorian, year: year, month: month, day: dayOfMonth + offset, time: time)
    }
    switch day {
    case .next:
      guard let date = onDay(0) else { return nil }
      return date > now ? date : onDay(1)
    case .today:
      return onDay(0)
    case .tomorrow:
      return onDay(1)
    case .weekday(let weekday):
      for offset in 0...7 {
        let noon = instant(
          gregorian, year: year, month: month, day: dayOfMonth + offset, time: ClockTime(hour: 12, minute: 0))
        guard let noon, gregorian.component(.weekday, from: noon) == weekday else { continue }
        if let date = onDay(offset), date > now { return date }
      }
      return nil
    case .date(let givenYear?, let month, let day):
      return instant(gregorian, year: givenYear, month: month, day: day, time: time)
    case .date(nil, let month, let day):
      // February 29 comes within eight years (1896 to 1904 had none).
      for candidate in year...(year + 8) where day <= DateTimeFields.daysIn(month: month, year: candidate) {
        if let date = instant(gregorian, year: candidate, month: month, day: day, time: time), date > now {
          return date
        }
      }
      return nil
    }
  }

  /// `time` on the given day (a day past the month's end is in the next month) in `calendar`'s zone.
  private func instant(_ calendar: Calendar, year: Int, month: Int, day: Int, time: ClockTime) -> Date? {
    let components = DateComponents(
      year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second)
    return calendar.date(from: components)?.addingTimeInterval(Double(time.nanosecond) / 1e9)
  }
}
