/// A board's display and the rings its slots draw over one row's total, read together: what the engine
/// binding of a row whose slots draw rings shows, so that it changes when the text changes and at each
/// visible step of each ring, and at no other time.
struct RingedDisplay<Text: CountdownDisplay>: CountdownDisplay {
  struct Value: Equatable, Sendable {
    /// The board's display's value.
    var text: Text.Value
    /// The steps left of the first ring, out of its number of steps.
    var step: Int
    /// The steps left of the other rings, in order (empty for one ring: nothing allocated).
    var otherSteps: [Int]

    /// The steps left of ring `index`.
    func step(ofRing index: Int) -> Int {
      index == 0 ? step : otherSteps[index - 1]
    }
  }

  let text: Text
  /// The rings, over one total: at least one.
  let rings: [ProgressDisplay]

  init(text: Text, rings: [ProgressDisplay]) {
    precondition(!rings.isEmpty, "Internal inconsistency: a ringed display without a ring")
    self.text = text
    self.rings = rings
  }

  func value(remaining: Duration) -> Value {
    Value(
      text: text.value(remaining: remaining), step: Self.step(of: rings[0], remaining: remaining),
      otherSteps: rings.count == 1 ? [] : rings.dropFirst().map { Self.step(of: $0, remaining: remaining) })
  }

  /// The soonest of the next changes (the largest remaining time).
  func nextChange(after remaining: Duration) -> Duration? {
    rings.reduce(text.nextChange(after: remaining)) { soonest, ring in
      switch (soonest, ring.nextChange(after: remaining)) {
      case (let a?, let b?): Swift.max(a, b)
      case (let a, let b): a ?? b
      }
    }
  }

  /// The shortest of the periods.
  var period: Duration? {
    rings.reduce(text.period) { shortest, ring in
      switch (shortest, ring.period) {
      case (let a?, let b?): Swift.min(a, b)
      case (let a, let b): a ?? b
      }
    }
  }

  /// The whole number of steps `ring` shows with `remaining` left.
  private static func step(of ring: ProgressDisplay, remaining: Duration) -> Int {
    Int((ring.value(remaining: remaining) * Double(ring.steps)).rounded())
  }
}

// Equal rings over equal displays share one display class in the engine.
extension RingedDisplay: Equatable where Text: Equatable {}
