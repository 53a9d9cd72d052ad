/// A reading of a wall clock as typed: which day, what time, in which zone. `18:00` is the next
/// 18:00 here; `fri 14:00` the next Friday at 14:00; `2027-01-01 9:30 Europe/Berlin` a date and time in
/// Berlin.
struct WallClockSpec: Equatable, Sendable {
  /// Which day the clock reading is on.
  enum Day: Equatable, Sendable {
    /// The next time the clock shows the time of day: today while it is ahead, else tomorrow.
    case next
    /// Today (the time may have passed: the countdown then ends at once).
    case today
    /// Tomorrow.
    case tomorrow
    /// The next day with this weekday (1 is Sunday … 7 is Saturday, as `Calendar` counts) on which
    /// the time is still ahead: a week ahead when it is that day and the time has passed.
    case weekday(Int)
    /// A date of the Gregorian calendar; without a year, the next time it comes.
    case date(year: Int?, month: Int, day: Int)
  }

  /// Where the clock hangs.
  enum Zone: Equatable, Sendable {
    /// The local time zone (the calendar's, when resolved).
    case local
    /// A fixed offset from UTC in seconds, within ±18 hours: `UTC`, `Z`, `+02:00`, `EST`.
    case offset(seconds: Int)
    /// A time zone of the tz database by its identifier: `Europe/Berlin`.
    case identifier(String)
  }

  /// The day.
  var day: Day
  /// The time of day; `nil` for the start of the day (`friday`, `2027-01-01`).
  var time: ClockTime?
  /// The zone.
  var zone: Zone

  /// A reading of `time` on `day` in `zone`.
  init(day: Day = .next, time: ClockTime?, zone: Zone = .local) {
    self.day = day
    self.time = time
    self.zone = zone
  }
}
