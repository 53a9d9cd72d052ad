import TestSupport
import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A suspended app: a process frozen for any length of time shows the right value at once when it thaws,
/// with one update per subscriber (not a burst of stale ones) and each completion that fell in the gap
/// fired exactly once.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct FrozenGapTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  static let displays: [RoundedDisplay] = [.seconds, .minutes, .secondsWithOvertime, .elapsedSeconds]

  /// A random gap: from nothing to a month, spread over the scales that matter.
  static func randomGap(using rng: inout SeededGenerator) -> Duration {
    switch Int.random(in: 0..<5, using: &rng) {
    case 0: .zero
    case 1: rng.duration(milliseconds: 0...2_000)
    case 2: rng.duration(milliseconds: 0...600_000)
    case 3: rng.duration(milliseconds: 0...172_800_000)
    default: .seconds(Int64.random(in: 0...2_592_000, using: &rng))
    }
  }

  @Test func callbacksBoardRowsAndUnboundCountdownsAfterAGapOfAnyLength() {
    let seed = SeededGenerator.testSeed()
    print("FrozenGapTests seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for round in 0..<60 {
      let gap = Self.randomGap(using: &rng)
      checkGap(gap, round: round, seed: seed, using: &rng)
    }
  }

  private func checkGap(_ gap: Duration, round: Int, seed: UInt64, using rng: inout SeededGenerator) {
    let context = "seed \(seed), round \(round), gap \(gap)"
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<String, Snapshot>()
    // Lengths up to twice the gap (plus a little), so that some countdowns end inside it and some after.
    let longest = gap * 2 + .seconds(5)
    func randomLength() -> Duration {
      .nanoseconds(Int64.random(in: 0...Int64(longest.components.seconds) * 1_000_000_000, using: &rng))
    }

    var callbacks: [(key: String, countdown: Countdown<ManualClock.Instant>, display: RoundedDisplay)] = []
    for index in 0..<6 {
      let key = "callback \(index)"
      let countdown = Countdown(duration: randomLength(), startingAt: clock.now)
      let display = Self.displays.randomElement(using: &rng)!
      engine.add(countdown, display: display, onChange: recorder.onChange(key), onFinish: recorder.onFinish(key))
      callbacks.append((key, countdown, display))
    }
    var unbound: [(key: String, countdown: Countdown<ManualClock.Instant>)] = []
    for index in 0..<3 {
      let key = "unbound \(index)"
      let countdown = Countdown(duration: randomLength(), startingAt: clock.now)
      engine.add(countdown, onFinish: recorder.onFinish(key))
      unbound.append((key, countdown))
    }
    let board = engine.board(of: Int.self, display: .seconds)
    let finishing = board.onFinish { id in recorder.finished("row \(id)") }
    defer { finishing.cancel() }
    var rows: [Int: Countdown<ManualClock.Instant>] = [:]
    for id in 0..<6 {
      rows[id] = Countdown(duration: randomLength(), startingAt: clock.now)
    }
    board.apply(.reloaded(CountdownBoard<Int, RoundedDisplay, ManualClock>.rows(rows, at: clock.now)))
    let slots = (0..<3).map { _ in board.slot() }
    for (id, slot) in slots.enumerated() {
      slot.bind(to: id, render: recorder.onChange("row \(id)"))
    }
    engine._serveDue()

    for (key, _, _) in callbacks {
      #expect(recorder.count(key) == 1, "the first snapshot is delivered at once; \(context)")
    }
    for id in slots.indices {
      #expect(recorder.count("row \(id)") == 1, "a slot renders at once when it binds; \(context)")
    }

    // Run a little before the freeze, serving on time.
    let before = rng.duration(milliseconds: 0...3_000)
    clock.advance(by: before)
    engine._serveDue()
    var countsBefore: [String: Int] = [:]
    for key in callbacks.map(\.key) + slots.indices.map({ "row \($0)" }) {
      countsBefore[key] = recorder.count(key)
    }
    var lastBefore: [String: Snapshot] = [:]
    for key in countsBefore.keys { lastBefore[key] = recorder.last(key) }

    // The freeze, then one wake-up.
    clock.advance(by: gap)
    engine._serveDue()
    let now = clock.now

    func check(_ key: String, _ countdown: Countdown<ManualClock.Instant>, _ display: RoundedDisplay) {
      let expected = countdown.snapshot(at: now, display: display)
      let previous = lastBefore[key]!
      let changed = previous.value != expected.value || previous.isFinished != expected.isFinished
      #expect(recorder.count(key) == countsBefore[key]! + (changed ? 1 : 0), "\(key): one update; \(context)")
      #expect(recorder.last(key)?.value == expected.value, "\(key): the current value; \(context)")
      #expect(recorder.last(key)?.isFinished == expected.isFinished, "\(key); \(context)")
    }
    for (key, countdown, display) in callbacks { check(key, countdown, display) }
    for id in slots.indices { check("row \(id)", rows[id]!, .seconds) }

    func expectFinishes(at instant: ManualClock.Instant) {
      for (key, countdown, _) in callbacks {
        #expect(recorder.finishes[key, default: 0] == (countdown.isFinished(at: instant) ? 1 : 0), "\(key); \(context)")
      }
      for (key, countdown) in unbound {
        #expect(recorder.finishes[key, default: 0] == (countdown.isFinished(at: instant) ? 1 : 0), "\(key); \(context)")
      }
      for (id, countdown) in rows {
        let finishes = recorder.finishes["row \(id)", default: 0]
        #expect(finishes == (countdown.isFinished(at: instant) ? 1 : 0), "row \(id) (bound: \(id < 3)); \(context)")
      }
    }
    expectFinishes(at: now)

    // Serving again at the same instant delivers nothing more.
    let counts = countsBefore.keys.map { recorder.count($0) }
    engine._serveDue()
    #expect(countsBefore.keys.map { recorder.count($0) } == counts, "\(context)")

    // A second freeze past every end: each completion has fired exactly once.
    clock.advance(by: longest + .seconds(1))
    engine._serveDue()
    expectFinishes(at: clock.now)
    withExtendedLifetime(slots) {}
  }

  @Test(arguments: [Duration.milliseconds(900), .seconds(59), .seconds(3_600), .seconds(86_400 * 3)])
  func aStreamShowsTheCurrentValueAfterAGapAndEndsOnceFinished(gap: Duration) async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let short = engine.snapshots(of: Countdown(duration: gap / 2, startingAt: clock.now), display: .seconds)
    let long = engine.snapshots(of: Countdown(duration: gap * 2, startingAt: clock.now), display: .seconds)
    var shortIterator = short.makeAsyncIterator()
    var longIterator = long.makeAsyncIterator()
    #expect(await shortIterator.next()?.remaining == gap / 2)
    #expect(await longIterator.next()?.remaining == gap * 2)

    clock.advance(by: gap)
    engine._serveDue()
    let finished = await shortIterator.next()
    #expect(finished?.isFinished == true)
    #expect(finished?.value == .zero)
    #expect(await shortIterator.next() == nil, "the stream ends once the countdown has finished")
    let current = await longIterator.next()
    #expect(current?.remaining == gap)
    #expect(current?.instant == clock.now)
    #expect(engine.count == 1)

    // The next element is the next change, not something stale from the gap.
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(await longIterator.next()?.remaining == gap - .seconds(1))
  }

  @Test func theDriverWakesOnceAfterAGap() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let recorder = Recorder<Int, Snapshot>()
    for index in 0..<5 {
      let countdown = Countdown(duration: .seconds(Int64(index) * 100 + 30), startingAt: clock.now)
      engine.add(countdown, display: .seconds, onChange: recorder.onChange(index), onFinish: recorder.onFinish(index))
    }
    await waitUntil("every first snapshot arrived") { (0..<5).allSatisfy { recorder.count($0) == 1 } }
    await waitForSleeper(clock)
    let wakeUps = engine.statistics.wakeUps

    clock.advance(by: .seconds(250))
    await waitUntil("the gap's updates arrived") { (0..<5).allSatisfy { recorder.count($0) == 2 } }
    await waitForSleeper(clock)
    #expect(engine.statistics.wakeUps == wakeUps + 1)
    #expect((0..<5).map { recorder.last($0)?.value } == [.zero, .zero, .zero, .seconds(80), .seconds(180)])
    #expect((0..<5).map { recorder.finishes[$0, default: 0] } == [1, 1, 1, 0, 0])
    // Next: the fourth countdown's change 1 s later, served at the end of its slot.
    #expect(clock.sleeperDeadlines == [.at(servedAt(.seconds(251)))])
  }
}
