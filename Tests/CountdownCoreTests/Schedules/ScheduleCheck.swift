import CountdownCore
import Foundation
import Testing

/// Checks a change schedule of `countdown` through `display` over `start...end` against brute force:
/// the display's value sampled every `step` (a millisecond by default) and at `end`.
///
/// - Every sample shows the value of the last element at or before it (no change missed);
/// - each element's value differs from the one before, is the true value at its instant, and the
///   instant one attosecond earlier still shows the previous value (none invented, none late or early);
/// - the elements' instants increase and lie in `start...end`; the first is `start`.
func expectScheduleMatchesSampling<Display: CountdownDisplay>(
  _ countdown: Countdown<TestInstant>,
  _ display: Display,
  from start: TestInstant,
  through end: TestInstant,
  step: Duration = .milliseconds(1),
  sourceLocation: SourceLocation = #_sourceLocation
) -> [CountdownChange<TestInstant, Display.Value>] {
  let schedule = Array(countdown.changes(of: display, from: start, through: end))
  func truth(_ instant: TestInstant) -> Display.Value { display.value(remaining: countdown.remaining(at: instant)) }
  guard let first = schedule.first else {
    Issue.record("empty schedule for \(display) over \(start)...\(end)", sourceLocation: sourceLocation)
    return schedule
  }
  #expect(first.at == start && first.value == truth(start), sourceLocation: sourceLocation)
  for (previous, change) in zip(schedule, schedule.dropFirst()) {
    #expect(
      previous.at < change.at && change.at <= end, "\(change.at) after \(previous.at)", sourceLocation: sourceLocation)
    #expect(change.value != previous.value, "invented change at \(change.at)", sourceLocation: sourceLocation)
    #expect(truth(change.at) == change.value, "wrong value at \(change.at)", sourceLocation: sourceLocation)
    let justBefore = change.at - Duration(secondsComponent: 0, attosecondsComponent: 1)
    #expect(truth(justBefore) == previous.value, "change at \(change.at) is late", sourceLocation: sourceLocation)
  }
  var index = 0
  var sample = start
  var mismatches = 0
  while true {
    while index + 1 < schedule.count && schedule[index + 1].at <= sample { index += 1 }
    if truth(sample) != schedule[index].value {
      mismatches += 1
      if mismatches <= 3 {
        Issue.record(
          "\(display) at \(sample): sampled \(truth(sample)), schedule shows \(schedule[index].value)",
          sourceLocation: sourceLocation)
      }
    }
    if sample == end { break }
    sample = sample.duration(to: end) < step ? end : sample + step
  }
  #expect(mismatches == 0, "\(mismatches) samples disagree", sourceLocation: sourceLocation)
  return schedule
}

/// Checks a wall-clock schedule against the exact value at each of its dates and at every millisecond
/// sample from `start` through `end`: `value(at:)` is the truth at a date.
func expectDatedScheduleMatchesSampling<Value: Equatable & Sendable>(
  _ schedule: [CountdownChange<Date, Value>],
  from start: Date,
  through end: Date,
  sourceLocation: SourceLocation = #_sourceLocation,
  value: (Date) throws -> Value
) throws {
  let first = try #require(schedule.first, sourceLocation: sourceLocation)
  let startValue = try value(start)
  #expect(first.at == start && first.value == startValue, sourceLocation: sourceLocation)
  for (previous, change) in zip(schedule, schedule.dropFirst()) {
    #expect(previous.at < change.at && change.at <= end, sourceLocation: sourceLocation)
    #expect(change.value != previous.value, "invented change at \(change.at)", sourceLocation: sourceLocation)
    let atChange = try value(change.at)
    #expect(atChange == change.value, "wrong value at \(change.at)", sourceLocation: sourceLocation)
    let justBefore = try value(Date(timeIntervalSinceReferenceDate: change.at.timeIntervalSinceReferenceDate.nextDown))
    #expect(justBefore == previous.value, "late change at \(change.at)", sourceLocation: sourceLocation)
  }
  var index = 0
  var mismatches = 0
  let milliseconds = Int((end.timeIntervalSince(start) * 1_000).rounded(.down))
  for sample in (0...milliseconds).map({ start.addingTimeInterval(Double($0) / 1_000) }) + [end] where sample <= end {
    while index + 1 < schedule.count && schedule[index + 1].at <= sample { index += 1 }
    let sampled = try value(sample)
    if sampled != schedule[index].value {
      mismatches += 1
      if mismatches <= 3 { Issue.record("at \(sample): schedule disagrees", sourceLocation: sourceLocation) }
    }
  }
  #expect(mismatches == 0, "\(mismatches) samples disagree", sourceLocation: sourceLocation)
}
