import TestSupport
import CountdownCore
import Testing

/// Checks the ``CountdownDisplay`` contract at `remaining`: the value is constant on
/// (nextChange, remaining], differs at nextChange, and never changes below when nextChange is nil.
func expectContract<Display: CountdownDisplay>(
  _ display: Display,
  at remaining: Duration,
  using generator: inout SeededGenerator,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let value = display.value(remaining: remaining)
  guard let next = display.nextChange(after: remaining) else {
    for below in [Duration.nanoseconds(1), .milliseconds(1), .seconds(1), .seconds(3_600), .seconds(86_400 * 400)] {
      #expect(
        display.value(remaining: remaining - below) == value,
        "\(display) at \(remaining): nextChange is nil but the value changes \(below) below",
        sourceLocation: sourceLocation)
    }
    return
  }
  #expect(next < remaining, "nextChange \(next) is not below \(remaining)", sourceLocation: sourceLocation)
  #expect(
    display.value(remaining: next) != value,
    "\(display) at \(remaining): the value at nextChange \(next) equals the current value \(value)",
    sourceLocation: sourceLocation)
  let gap = (remaining - next).attosecondCount
  guard gap > 0 else { return }
  var probes: [Int128] = [1, gap, gap - 1, gap / 2]
  for _ in 0..<24 {
    probes.append(Int128(UInt64.random(in: 0..<UInt64.max, using: &generator)) % gap + 1)
  }
  for probe in probes where probe >= 1 && probe <= gap {
    let point = next + Duration(attosecondCount: probe)
    #expect(
      display.value(remaining: point) == value,
      "\(display): value at \(point) differs from the value at \(remaining) though the next change is \(next)",
      sourceLocation: sourceLocation)
  }
}

/// Walks `display` from `start` down to `end` by following nextChange, and compares every value it
/// passes with a brute-force scan in steps of `step`: a change the walk jumps over is a failure.
func expectWalkMatchesScan<Display: CountdownDisplay>(
  _ display: Display,
  from start: Duration,
  to end: Duration,
  step: Duration,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var walked: [Display.Value] = [display.value(remaining: start)]
  var position = start
  while let next = display.nextChange(after: position), next >= end {
    walked.append(display.value(remaining: next))
    position = next
  }
  var scanned: [Display.Value] = [display.value(remaining: start)]
  var point = start
  while point - step >= end {
    point -= step
    let value = display.value(remaining: point)
    if value != scanned.last { scanned.append(value) }
  }
  #expect(walked == scanned, "\(display) from \(start) to \(end)", sourceLocation: sourceLocation)
}
