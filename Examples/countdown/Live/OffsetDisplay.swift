import CountdownKit

/// A display read `offset` earlier: shows `base`'s value for `remaining - offset`.
///
/// With an elapsed display and `offset` = the total, it shows the time since the start of a countdown
/// (`total - remaining`): how `countdown --up 5m` counts from 00:00 to 05:00.
struct OffsetDisplay<Base: CountdownDisplay>: CountdownDisplay {
  let base: Base
  let offset: Duration

  func value(remaining: Duration) -> Base.Value {
    base.value(remaining: remaining - offset)
  }

  func nextChange(after remaining: Duration) -> Duration? {
    base.nextChange(after: remaining - offset).map { $0 + offset }
  }

  var period: Duration? { base.period }
}
