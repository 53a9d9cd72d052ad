import CountdownKit

/// What the live view's ring shows: the fraction left (emptying), the fraction done (filling, when
/// counting up to a time), or a stopwatch's current minute (filling once a minute).
struct RingDisplay: CountdownDisplay {
  enum Kind {
    case left(ProgressDisplay)
    case done(ProgressDisplay)
    case minute(steps: Int)
  }

  let kind: Kind

  func value(remaining: Duration) -> Double? {
    switch kind {
    case .left(let progress): progress.value(remaining: remaining)
    case .done(let progress): 1 - progress.value(remaining: remaining)
    case .minute(let steps): Double(step(remaining: remaining, steps: steps)) / Double(steps)
    }
  }

  func nextChange(after remaining: Duration) -> Duration? {
    switch kind {
    case .left(let progress), .done(let progress):
      return progress.nextChange(after: remaining)
    case .minute(let steps):
      // A stopwatch's elapsed time is -remaining; the next step starts at the next multiple of the step length.
      let unit = Duration.seconds(60) / steps
      let elapsed = Duration.zero - remaining
      let next = elapsed.floorQuotient(dividingBy: unit) + 1
      return .zero - .times(unit, next)
    }
  }

  var period: Duration? {
    switch kind {
    case .left(let progress), .done(let progress): progress.period
    case .minute(let steps): .seconds(60) / steps
    }
  }

  private func step(remaining: Duration, steps: Int) -> Int {
    let unit = Duration.seconds(60) / steps
    let elapsed = max(Duration.zero - remaining, .zero)
    return Int(elapsed.floorQuotient(dividingBy: unit) % Int128(steps))
  }
}
