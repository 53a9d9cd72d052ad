import CountdownKit
import CountdownTesting
import Testing
import TestSupport

/// The engine's core against a brute-force model: random adds, cancels, pauses, resumes, retargets and
/// extensions at random instants, the core served exactly when it asks to be woken. At every step the
/// model computes from scratch what each countdown shows and where its completion stands; the core
/// must deliver exactly the same changes and completions, at the same instants, and ask to be woken
/// no later than a tolerance after the earliest change it owes.
@Suite struct EngineCorePropertyTests {
  /// A display, type-erased for the test: how the model reads it and how the core is given it.
  struct TestDisplay {
    let name: String
    /// What the display shows for a remaining time in ticks.
    let seen: (Tick) -> String
    /// The remaining time below the given one at which the value changes, in whole ticks (rounded
    /// down, as the engine schedules), or nil.
    let nextChange: (Tick) -> Tick?
    let period: Duration?
    let addClass: (inout CoreHarness) -> UInt32
    /// What a change the core produced shows, built as the engine builds snapshots.
    let shown: (Effects.Change) -> String

    static func of<Display: CountdownDisplay>(_ display: Display, _ name: String) -> TestDisplay {
      let plan = DisplayPlan.make(for: display)
      return TestDisplay(
        name: name,
        seen: { "\(display.value(remaining: Ticks.duration($0)))" },
        nextChange: { display.nextChange(after: Ticks.duration($0)).map(Ticks.floor) },
        period: display.period,
        addClass: { $0.addClass(display) },
        shown: { change in
          let snapshot = Snapshots.snapshot(
            of: change, at: ManualClock.Instant(offset: .zero), display: display,
            valueIsTicks: DisplayPlan.valueIsTicks(plan, for: Display.Value.self))
          return "\(snapshot.value)"
        })
    }
  }

  static var displays: [TestDisplay] {
    [
      .of(RoundedDisplay.seconds, "seconds"),
      .of(RoundedDisplay.rounded(to: .milliseconds(250)), "quarters"),
      .of(RoundedDisplay.secondsWithOvertime, "overtime"),
      .of(RoundedDisplay.elapsedSeconds, "elapsed"),
      .of(ProgressDisplay.progress(steps: 40, total: .seconds(10)), "progress"),
      .of(AdaptiveDisplay.adaptive([.init(above: .seconds(10), unit: .seconds(5))], finest: .seconds(1)), "adaptive"),
      .of(
        PhaseDisplay.phases("calm", [.seconds(8): "hurry", .milliseconds(7_800): "now", .seconds(1): "last"]), "phases"),
      .of(RoundedDisplay.seconds.map { $0 > .seconds(4) ? "many" : "few" }, "mapped (generic)"),
      .of(RoundedDisplay.seconds.combined(with: ProgressDisplay(steps: 7, total: .seconds(9))), "combined (generic)"),
    ]
  }

  /// One countdown as the model sees it.
  struct Subject {
    let display: TestDisplay
    let tolerance: Tick
    var row: Int
    var sink: SinkKey?
    var end: Tick
    var pausedAt: Tick?
    var completion = RowFlags.Completion.armed
    var last: Seen?
    /// When the model last brought what the subject shows up to date.
    var checkedAt: Tick
    var isCancelled = false

    func remaining(at now: Tick) -> Tick { Ticks.difference(end, pausedAt ?? now) }

    func seen(at now: Tick) -> Seen {
      let remaining = remaining(at: now)
      return Seen(value: display.seen(remaining), isPaused: pausedAt != nil, isFinished: remaining <= 0)
    }

    /// The earliest instant since the model last brought the subject up to date at which the core
    /// owes it something: its next visible change, or its completion.
    var owed: Tick? {
      guard !isCancelled else { return nil }
      var owed: Tick?
      if completion == .pending { owed = checkedAt }
      if pausedAt == nil {
        if completion == .armed { owed = Swift.min(owed ?? .max, end) }
        if let next = display.nextChange(remaining(at: checkedAt)) { owed = Swift.min(owed ?? .max, end - next) }
      }
      return owed
    }
  }

  /// What a run expects and what the core did, each as lines to compare.
  struct Log {
    var expected: [String] = []
    var actual: [String] = []
  }

  @Test func theCoreDeliversExactlyWhatABruteForceModelSays() {
    let seed = SeededGenerator.testSeed()
    print("EngineCorePropertyTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for round in 0..<40 {
      var log = runRound(using: &rng)
      // The order of a serve's changes among countdowns is the core's own; each countdown's are in order.
      log.actual = Self.ordered(log.actual)
      log.expected = Self.ordered(log.expected)
      guard log.actual != log.expected else { continue }
      let common = Swift.min(log.actual.count, log.expected.count)
      let first = (0..<common).first { log.actual[$0] != log.expected[$0] } ?? common
      Issue.record(
        """
        seed \(seed), round \(round): the core and the model part at line \(first)
        core:  \(log.actual[Swift.max(first - 3, 0)..<Swift.min(first + 3, log.actual.count)])
        model: \(log.expected[Swift.max(first - 3, 0)..<Swift.min(first + 3, log.expected.count)])
        """)
      return
    }
  }

  /// `lines` ordered by tick, then by subject, keeping each subject's order within a tick.
  static func ordered(_ lines: [String]) -> [String] {
    func key(_ line: String) -> (Int64, Int) {
      let parts = line.split(separator: " ")
      let tick = Int64(parts.first?.dropLast() ?? "") ?? 0
      let subject = parts.count > 1 ? Int(parts[1].dropFirst()) ?? -1 : -1
      return (tick, subject)
    }
    return lines.enumerated().sorted { lhs, rhs in
      let (left, right) = (key(lhs.element), key(rhs.element))
      return left != right ? left < right : lhs.offset < rhs.offset
    }.map(\.element)
  }

  private func runRound(using rng: inout SeededGenerator) -> Log {
    var harness = CoreHarness()
    var log = Log()
    var subjects: [Subject] = []
    var now: Tick = 0
    var seenChanges = 0
    var seenEvents = 0

    /// Appends what the core produced since the last call to the log.
    func collect() {
      for (tick, change) in harness.changes[seenChanges...] {
        guard let index = subjects.firstIndex(where: { $0.sink == change.sinkKey && !$0.isCancelled }) else {
          log.actual.append("\(tick): change for an unknown sink \(change.sinkKey)")
          continue
        }
        let shown = Seen(
          value: subjects[index].display.shown(change), isPaused: change.isPaused, isFinished: change.isFinished)
        log.actual.append("\(tick): #\(index) shows \(shown)")
        // The completion of a subscriber carried by the change that shows zero.
        if change.finishesSubscriber { log.actual.append("\(tick): #\(index) finished") }
      }
      for (tick, event) in harness.events[seenEvents...] {
        guard case .finished(let row, _, _, _) = event else { continue }
        let index = subjects.firstIndex { $0.row == Int(row) && !$0.isCancelled }
        log.actual.append("\(tick): #\(index.map(String.init) ?? "?") finished")
      }
      seenChanges = harness.changes.count
      seenEvents = harness.events.count
    }

    /// What the model expects of subject `index` at a step: a change if what it shows changed, and
    /// the completion's move (fired only when serving or adding).
    func expect(_ index: Int, serving: Bool, forced: Bool = false) {
      let seen = subjects[index].seen(at: now)
      subjects[index].checkedAt = now
      if subjects[index].sink != nil, subjects[index].display.name != "none", forced || seen != subjects[index].last {
        log.expected.append("\(now): #\(index) shows \(seen)")
        subjects[index].last = seen
      }
      switch (subjects[index].remaining(at: now) > 0, subjects[index].completion, serving) {
      case (true, _, _): subjects[index].completion = .armed
      case (false, .fired, _), (false, .pending, false): break
      case (false, .armed, false): subjects[index].completion = .pending
      case (false, .armed, true), (false, .pending, true):
        subjects[index].completion = .fired
        log.expected.append("\(now): #\(index) finished")
      }
    }

    func add() {
      let display: TestDisplay? = Bool.random(using: &rng) ? Self.displays.randomElement(using: &rng) : nil
      // Without a display: bound to completion-only class 0, or not bound at all (a board row).
      let displayClass = display.map { $0.addClass(&harness) } ?? (Bool.random(using: &rng) ? 0 : nil)
      let end = Ticks.sum(now, ticks(rng.duration(milliseconds: -2_000...15_000)))
      let pausedAt: Tick? = Int.random(in: 0..<5, using: &rng) == 0 ? now : nil
      let row = harness.add(
        end: end, pausedAt: pausedAt, displayClass: displayClass, at: now)
      subjects.append(
        Subject(
          display: display ?? Self.none, tolerance: harness.core.tolerance(forPeriod: display?.period), row: row,
          sink: displayClass == nil ? nil : harness.sink(of: row), end: end, pausedAt: pausedAt, checkedAt: now))
      expect(subjects.count - 1, serving: true, forced: true)
    }

    /// One random change made by hand, to the core and to the model alike.
    func mutate() {
      let live = subjects.indices.filter { !subjects[$0].isCancelled }
      guard let index = live.randomElement(using: &rng), Int.random(in: 0..<8, using: &rng) != 0 else { return add() }
      let row = subjects[index].row
      // A countdown whose time ran out while the core had not served it yet reached zero at its end.
      if subjects[index].completion == .armed, subjects[index].remaining(at: now) <= 0 {
        subjects[index].completion = .pending
      }
      switch Int.random(in: 0..<6, using: &rng) {
      case 0:
        harness.change(row, .pause, at: now)
        if subjects[index].pausedAt == nil { subjects[index].pausedAt = now }
      case 1:
        harness.change(row, .resume, at: now)
        if let pausedAt = subjects[index].pausedAt {
          subjects[index].end = Ticks.sum(now, Ticks.difference(subjects[index].end, pausedAt))
          subjects[index].pausedAt = nil
        }
      case 2:
        let end = Ticks.sum(now, ticks(rng.duration(milliseconds: -2_000...10_000)))
        harness.change(row, .retarget(end: end, target: nil), at: now)
        subjects[index].end = end
      case 3:
        let amount = ticks(rng.duration(milliseconds: -3_000...3_000))
        harness.change(row, .extend(amount), at: now)
        subjects[index].end = Ticks.sum(subjects[index].end, amount)
      case 4:
        harness.remove(row, at: now)
        subjects[index].isCancelled = true
        return
      default:
        harness.change(row, .extend(0), at: now)
      }
      expect(index, serving: false)
    }

    for _ in 0..<5 {
      add()
      collect()
    }
    let horizon = ticks(.seconds(20))
    var nextMutation = Ticks.sum(now, ticks(rng.duration(milliseconds: 0...2_000)))
    while now < horizon {
      let wake = harness.nextWake()
      let owed = subjects.compactMap { subject in subject.owed.map { ($0, subject.tolerance) } }
      if let (earliest, tolerance) = owed.min(by: { $0.0 < $1.0 }) {
        guard let wake, wake <= Swift.max(earliest, now) + tolerance else {
          log.actual.append("\(now): wakes at \(String(describing: wake)), owes something at \(earliest)")
          return log
        }
      }
      if let wake, wake <= nextMutation {
        // A wake-up in the past (a completion owed since before a change) is a wake-up at once.
        now = Swift.max(wake, now)
        harness.serve(at: now)
        for index in subjects.indices where !subjects[index].isCancelled { expect(index, serving: true) }
      } else {
        now = nextMutation
        nextMutation = Ticks.sum(now, ticks(rng.duration(milliseconds: 0...2_000)))
        mutate()
      }
      collect()
    }
    return log
  }

  static var none: TestDisplay {
    TestDisplay(
      name: "none", seen: { _ in "" }, nextChange: { _ in nil }, period: nil, addClass: { _ in 0 },
      shown: { _ in "" })
  }
}
