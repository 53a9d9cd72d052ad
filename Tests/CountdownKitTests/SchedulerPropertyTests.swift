import TestSupport
import CountdownKit
import CountdownTesting
import Testing

/// The scheduler on its own, driven at exactly the wake instants it asks for, with random pauses,
/// resumes, retargets and extensions in between, checked against brute-force sampling of what each
/// countdown truly shows: a value is never delivered early, never more than its entry's tolerance
/// late, and never skipped.
@Suite struct SchedulerPropertyTests {
  typealias Instant = EngineTick

  /// One countdown under test and everything the check needs to know about it.
  struct Subject {
    var id: EntryID
    var tolerance: Duration
    var renderer: any LoggingRenderer
    /// The countdown from each instant on (the first from the start).
    var history: [(from: Instant, countdown: Countdown<Instant>)]
    var completions: [Instant] = []

    func countdown(at instant: Instant) -> Countdown<Instant> {
      history.last { $0.from <= instant }!.countdown
    }

    func seen(at instant: Instant) -> Seen {
      renderer.seen(countdown(at: instant), at: instant)
    }

    func remaining(at instant: Instant) -> Duration {
      countdown(at: instant).remaining(at: instant)
    }
  }

  /// The displays under test: every one has changes at least 250 ms apart, so a tolerance of a tenth
  /// of that (or the 100 ms maximum) can never legitimately merge two changes.
  static func randomRenderer(using rng: inout SeededGenerator) -> any LoggingRenderer {
    switch Int.random(in: 0..<7, using: &rng) {
    case 0: RecordingRenderer(display: RoundedDisplay.seconds)
    case 1: RecordingRenderer(display: RoundedDisplay.rounded(to: .milliseconds(250)))
    case 2: RecordingRenderer(display: RoundedDisplay.secondsWithOvertime)
    case 3: RecordingRenderer(display: RoundedDisplay.elapsedSeconds)
    case 4: RecordingRenderer(display: ProgressDisplay.progress(steps: 40, total: .seconds(10)))
    case 5:
      RecordingRenderer(
        display: AdaptiveDisplay.adaptive([.init(above: .seconds(10), unit: .seconds(5))], finest: .seconds(1)))
    default:
      RecordingRenderer(
        display: PhaseDisplay.phases("calm", [.seconds(8): "hurry", .milliseconds(7_800): "now", .seconds(1): "last"]))
    }
  }

  @Test func deliveriesAreNeverEarlyNeverLateBeyondToleranceAndNeverSkipped() {
    let seed = SeededGenerator.testSeed()
    print("SchedulerPropertyTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for round in 0..<12 {
      runRound(round, seed: seed, using: &rng)
    }
  }

  private func runRound(_ round: Int, seed: UInt64, using rng: inout SeededGenerator) {
    let context = "seed \(seed), round \(round)"
    var scheduler = Scheduler(maximumTolerance: .milliseconds(100))
    let completions = CompletionLog()
    var now = Instant.at(.zero)
    var subjects: [Subject] = []
    for key in 0..<6 {
      let renderer = Self.randomRenderer(using: &rng)
      let tolerance = scheduler.tolerance(forPeriod: renderer.period)
      let countdown = Countdown(duration: rng.duration(milliseconds: 0...15_000), startingAt: now)
      let (id, deliveries) = scheduler.add(
        countdown, renderer: renderer.asRenderer, tolerance: tolerance, onFinish: [completions.delivery(key)], at: now)
      perform(deliveries)
      subjects.append(Subject(id: id, tolerance: tolerance, renderer: renderer, history: [(now, countdown)]))
    }
    func collectCompletions() {
      for key in completions.take() { subjects[key].completions.append(now) }
    }
    collectCompletions()

    let horizon = Instant.at(.seconds(20))
    var nextMutation = now.advanced(by: rng.duration(milliseconds: 0...2_000))
    while now < horizon {
      let wake = scheduler.nextWake()
      if let wake, wake <= nextMutation {
        #expect(wake > now, "the scheduler never asks to wake in the past; \(context)")
        now = wake
        perform(scheduler.advance(to: now))
      } else {
        now = nextMutation
        nextMutation = now.advanced(by: rng.duration(milliseconds: 0...2_000))
        let key = Int.random(in: subjects.indices, using: &rng)
        let at = now
        let transform: (Countdown<Instant>) -> Countdown<Instant>
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: transform = { $0.paused(at: at) }
        case 1: transform = { $0.resumed(at: at) }
        case 2:
          let end = now.advanced(by: rng.duration(milliseconds: -2_000...10_000))
          transform = { $0.retargeted(to: end) }
        case 3:
          let amount = rng.duration(milliseconds: -3_000...3_000)
          transform = { $0.extended(by: amount) }
        default: transform = { $0 }
        }
        let updated = transform(subjects[key].countdown(at: now))
        perform(scheduler.update(subjects[key].id, at: now, transform))
        subjects[key].history.append((now, updated))
      }
      collectCompletions()
    }
    for subject in subjects {
      check(subject, until: now, context: context)
    }
  }

  private func check(_ subject: Subject, until end: Instant, context: String) {
    let log = subject.renderer.log
    let grid = Duration.milliseconds(10)
    for (index, delivery) in log.enumerated() {
      // Never early (and never wrong): what is delivered is what is true at the delivery instant.
      #expect(delivery.seen == subject.seen(at: delivery.instant), "\(delivery.instant); \(context)")
      guard index > 0 else { continue }
      let previous = log[index - 1]
      #expect(delivery.seen != previous.seen, "only changes are delivered; \(context)")
      #expect(delivery.instant >= previous.instant, "\(context)")
      // Never late by more than the tolerance: the previous value was still true a tolerance before.
      let lastOnTime = delivery.instant.advanced(by: .zero - subject.tolerance - .nanoseconds(1))
      if lastOnTime >= previous.instant {
        #expect(subject.seen(at: lastOnTime) == previous.seen, "late at \(delivery.instant); \(context)")
      }
      // Never skipped: between two deliveries, every value that was true for longer than the tolerance
      // is the old one or the new one, in that order. (A shorter one may be superseded by a change
      // made by hand before its wake-up, which is what the tolerance allows.)
      var runs: [(seen: Seen, length: Int)] = []
      var sample = previous.instant
      while sample <= delivery.instant {
        let seen = subject.seen(at: sample)
        if runs.last?.seen == seen { runs[runs.count - 1].length += 1 } else { runs.append((seen, 1)) }
        sample = sample.advanced(by: grid)
      }
      var lasting: [Seen] = []
      for run in runs where grid * (run.length - 1) > subject.tolerance && lasting.last != run.seen {
        lasting.append(run.seen)
      }
      let allowed = [[], [previous.seen], [delivery.seen], [previous.seen, delivery.seen]]
      #expect(
        allowed.contains(lasting),
        "skipped a value: \(lasting) between \(previous.instant) and \(delivery.instant); \(context)")
    }
    // After the last delivery the value stays as delivered (up to the tolerance before the end).
    if let last = log.last {
      var sample = last.instant
      let lastOnTime = end.advanced(by: .zero - subject.tolerance - .nanoseconds(1))
      while sample <= lastOnTime {
        #expect(subject.seen(at: sample) == last.seen, "missed a change after \(sample); \(context)")
        sample = sample.advanced(by: grid)
      }
    }
    checkCompletions(subject, until: end, context: context)
  }

  private func checkCompletions(_ subject: Subject, until end: Instant, context: String) {
    // Each completion fires when no time is left, and only once per reaching zero: between two of
    // them, a change must have put time back on the clock.
    for (index, fired) in subject.completions.enumerated() {
      #expect(subject.remaining(at: fired) <= .zero, "fired early at \(fired); \(context)")
      if index > 0 {
        let previous = subject.completions[index - 1]
        let rearmed = subject.history.contains {
          $0.from > previous && $0.from <= fired && $0.countdown.remaining(at: $0.from) > .zero
        }
        #expect(rearmed, "fired twice (\(previous), \(fired)) for one reaching zero; \(context)")
      }
    }
    // Every reaching zero that stays at zero for a tolerance gets its completion within that tolerance.
    var zeroes: [Instant] = []
    for (index, segment) in subject.history.enumerated() {
      let segmentEnd = index + 1 < subject.history.count ? subject.history[index + 1].from : end
      let wasPositive = index == 0 || subject.history[index - 1].countdown.remaining(at: segment.from) > .zero
      if segment.countdown.remaining(at: segment.from) <= .zero {
        if wasPositive { zeroes.append(segment.from) }
      } else if let finish = segment.countdown.end, finish < segmentEnd {
        zeroes.append(finish)
      }
    }
    for zero in zeroes {
      let deadline = zero.advanced(by: subject.tolerance)
      guard deadline <= end else { continue }
      let staysAtZero = !subject.history.contains {
        $0.from > zero && $0.from <= deadline && $0.countdown.remaining(at: $0.from) > .zero
      }
      guard staysAtZero else { continue }
      #expect(
        subject.completions.contains { $0 >= zero && $0 <= deadline }, "no completion for zero at \(zero); \(context)")
    }
  }
}

/// A renderer whose deliveries a test can read back, whatever its display.
protocol LoggingRenderer: Sendable {
  var log: [(instant: EngineTick, seen: Seen)] { get }
  var period: Duration? { get }
  var asRenderer: Renderer { get }
  func seen(_ countdown: Countdown<EngineTick>, at instant: EngineTick) -> Seen
}

extension RecordingRenderer: LoggingRenderer {
  var period: Duration? { display.period }

  var asRenderer: Renderer { renderer }

  func seen(_ countdown: Countdown<EngineTick>, at instant: EngineTick) -> Seen {
    Seen(countdown, at: instant, display: display)
  }
}
