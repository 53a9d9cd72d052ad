// libFuzzer target: CountdownCore's arithmetic. Random sequences of start/pause/resume/retarget/
// extend/advance with arbitrary durations and instants, checking Countdown's invariants after each
// step, and every display's nextChange contract at the remaining times met on the way. Instants and
// durations stay within ±1,000,000 years (`limit`), well inside what any clock the engine runs on
// can reach; displays are probed with any `Duration`. Built and run by Fuzz/run.

/// A million years in seconds.
private let limit: Int64 = 31_557_600_000_000

/// libFuzzer's entry point: checks one input; a broken invariant stops the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreArithmetic(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: data, count: size))
  var now = FuzzInstant(offset: input.duration(limitSeconds: limit))
  let total = input.duration(limitSeconds: limit)
  var countdown = Countdown(duration: total, startingAt: now)
  check(countdown, at: now)
  for _ in 0..<24 where !input.isEmpty {
    let before = countdown
    let left = countdown.remaining(at: now)
    switch input.byte() % 7 {
    case 0:
      now = now.advanced(by: input.duration(limitSeconds: limit))
      if before.isPaused { require(countdown.remaining(at: now) == left, "a paused countdown moved") }
    case 1:
      countdown = countdown.paused(at: now)
      require(countdown.isPaused && countdown.remaining(at: now) == left, "pause changed the time left")
    case 2:
      countdown = countdown.resumed(at: now)
      require(!countdown.isPaused && countdown.remaining(at: now) == left, "resume changed the time left")
    case 3:
      let end = FuzzInstant(offset: input.duration(limitSeconds: limit))
      countdown = countdown.retargeted(to: end)
      if !before.isPaused { require(countdown.remaining(at: now) == now.duration(to: end), "retarget missed") }
      require(countdown.isPaused == before.isPaused && countdown.total == before.total, "retarget changed state")
    case 4:
      let amount = input.duration(limitSeconds: limit)
      countdown = countdown.extended(by: amount)
      require(countdown.remaining(at: now) == left + amount, "extend by \(amount) gave the wrong time left")
    case 5:
      countdown = .stopwatch(startedAt: now)
      require(countdown.elapsed(at: now) == .zero && countdown.progress(at: now) == nil, "stopwatch")
    default:
      countdown = Countdown(end: now.advanced(by: input.duration(limitSeconds: limit)), total: total)
    }
    check(countdown, at: now)
    checkDisplays(at: countdown.remaining(at: now), &input)
  }
  return 0
}

private func check(_ countdown: Countdown<FuzzInstant>, at now: FuzzInstant) {
  let left = countdown.remaining(at: now)
  require(countdown.elapsed(at: now) == .zero - left, "elapsed is not -remaining")
  require(countdown.isFinished(at: now) == (left <= .zero), "finished disagrees with the time left")
  if let progress = countdown.progress(at: now) {
    require(progress >= 0 && progress <= 1 && !progress.isNaN, "progress \(progress)")
  }
  let snapshot = countdown.snapshot(at: now, display: RoundedDisplay.seconds)
  require(snapshot.remaining == left && snapshot.isPaused == countdown.isPaused, "snapshot disagrees")
  require(countdown.paused(at: now).resumed(at: now).remaining(at: now) == left, "pause+resume moved it")
}

/// Built-in displays, and compositions, obey the nextChange contract around `remaining` (two of them
/// per step, chosen by the input, so that each input stays fast).
private func checkDisplays(at remaining: Duration, _ input: inout FuzzInput) {
  let probe = input.byte() & 1 == 0 ? remaining : input.anyDuration()
  let unit = input.duration(limitSeconds: 100_000)
  let positive = unit > .zero ? unit : .seconds(1)
  let parameter = input.duration(limitSeconds: 1_000_000)
  for _ in 0..<2 {
    switch input.byte() % 13 {
    case 0: verify(RoundedDisplay.seconds, probe)
    case 1: verify(RoundedDisplay.secondsWithOvertime, probe)
    case 2: verify(RoundedDisplay.elapsedSeconds, probe)
    case 3: verify(RoundedDisplay(unit: positive, reading: input.byte() & 1 == 0 ? .remaining : .elapsed), probe)
    case 4: verify(RoundedDisplay(unit: positive, showsOvertime: true), probe)
    case 5: verify(AdaptiveDisplay.adaptive, probe)
    case 6: verify(AdaptiveDisplay.coarse, probe)
    case 7:
      let tier = AdaptiveDisplay.Tier(above: max(parameter, .zero), unit: positive * 60)
      verify(AdaptiveDisplay([tier], finest: positive), probe)
    case 8: verify(ProgressDisplay(steps: Int(input.byte()) + 1, total: positive * 7), probe)
    case 9: verify(PhaseDisplay.phases(0, [parameter: 1, .zero: 2, parameter / 2: 1]), probe)
    case 10: verify(RoundedDisplay.seconds.combined(with: ProgressDisplay(steps: 4, total: positive)), probe)
    case 11: verify(RoundedDisplay.seconds.map { $0.components.seconds / 5 }, probe)
    default: verify(RoundedDisplay.seconds.map { $0 > .seconds(10) }, min(max(probe, .seconds(-30)), .seconds(30)))
    }
  }
}

/// The contract of `CountdownDisplay`: `n = nextChange(after: r)` is below `r`, the value is the
/// same on `n<..r` (checked at `n` + 1 attosecond and a midpoint) and differs at `n`; without a next
/// change the value is the same far below `r`.
private func verify<Display: CountdownDisplay>(_ display: Display, _ remaining: Duration) {
  let value = display.value(remaining: remaining)
  let attoseconds = remaining.attoseconds
  guard let next = display.nextChange(after: remaining) else {
    let steps: [Int128] = [1, 1_000_000_000_000_000_000, 31_557_600 * 1_000_000_000_000_000_000]
    for below in steps.compactMap({ representable(attoseconds - $0) }) + [.seconds(Int64.min / 2)]
    where below < remaining {
      require(display.value(remaining: below) == value, "\(display) changes below \(remaining) after saying nil")
    }
    return
  }
  // A mapped display may report a base change with no visible change after 1,000 of them (documented).
  let mapped = display is MappedDisplay<RoundedDisplay, Bool> || display is MappedDisplay<RoundedDisplay, Int64>
  require(next < remaining, "\(display): next change \(next) is not below \(remaining)")
  require(mapped || display.value(remaining: next) != value, "\(display): value at \(next) is unchanged")
  let justAbove = next + Duration(secondsComponent: 0, attosecondsComponent: 1)
  require(display.value(remaining: justAbove) == value, "\(display): value changes before \(next) (r \(remaining))")
  let middle = Duration(attoseconds: next.attoseconds + (attoseconds - next.attoseconds + 1) / 2)
  require(display.value(remaining: middle) == value, "\(display): value changes at \(middle) (r \(remaining))")
}

/// `attoseconds` as a `Duration`, if it can hold it.
private func representable(_ attoseconds: Int128) -> Duration? {
  let (seconds, _) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
  guard seconds >= Int128(Int64.min) + 1, seconds <= Int128(Int64.max) - 1 else { return nil }
  return Duration(attoseconds: attoseconds)
}

extension FuzzInput {
  /// A duration anywhere in the range `Duration` can hold (whole seconds in an `Int64`), its limits
  /// and half-way points included. (It stayed within half of it until the displays' contract held at
  /// the limits too: Tests/CountdownCoreTests/FuzzFindingsTests.swift.)
  mutating func anyDuration() -> Duration {
    let half = Int64.max / 2
    let attoseconds = int64() % 1_000_000_000_000_000_000
    return switch byte() % 8 {
    case 0: .seconds(half)
    case 1: .seconds(-half)
    case 2: Duration(secondsComponent: .max, attosecondsComponent: abs(attoseconds))
    case 3: Duration(secondsComponent: .min, attosecondsComponent: -abs(attoseconds))
    case 4, 5: Duration(secondsComponent: int64(), attosecondsComponent: attoseconds)
    default: Duration(secondsComponent: int64() % half, attosecondsComponent: attoseconds)
    }
  }
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError("Invariant broken: \(message())") }
}
