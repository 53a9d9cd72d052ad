/// Whether a countdown has finished (no time left): a display that changes once, at zero. Combined
/// with an app's display, it makes the finish a boundary of every plan, so that no entry says "not
/// finished" across the finish.
struct FinishDisplay: CountdownDisplay {
  func value(remaining: Duration) -> Bool { remaining <= .zero }

  func nextChange(after remaining: Duration) -> Duration? { remaining > .zero ? .zero : nil }
}
