import Foundation

/// The pair of units ``CountdownFormatStyle/Preset/units`` and ``CountdownFormatStyle/Preset/spoken``
/// show for a value of a given magnitude.
enum UnitsBand: Hashable {
  /// One day or more: days and hours.
  case daysAndHours
  /// One hour or more, below a day: hours and minutes.
  case hoursAndMinutes
  /// Below an hour: minutes and seconds.
  case minutesAndSeconds

  /// The band of `value`'s magnitude.
  init(_ value: Duration) {
    let magnitude = value.attosecondMagnitude
    if magnitude >= Duration.seconds(86_400).attosecondMagnitude {
      self = .daysAndHours
    } else if magnitude >= Duration.seconds(3_600).attosecondMagnitude {
      self = .hoursAndMinutes
    } else {
      self = .minutesAndSeconds
    }
  }

  /// The smaller of the two units.
  var granularity: Duration {
    switch self {
    case .daysAndHours: .seconds(3_600)
    case .hoursAndMinutes: .seconds(60)
    case .minutesAndSeconds: .seconds(1)
    }
  }

  /// Both units, for `Duration.UnitsFormatStyle`.
  var units: Set<Duration.UnitsFormatStyle.Unit> {
    switch self {
    case .daysAndHours: [.days, .hours]
    case .hoursAndMinutes: [.hours, .minutes]
    case .minutesAndSeconds: [.minutes, .seconds]
    }
  }
}

extension Duration {
  /// The exact magnitude in attoseconds.
  var attosecondMagnitude: UInt128 { attosecondCount.magnitude }
}
