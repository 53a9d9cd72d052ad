import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// The user moves the device clock. A countdown started for a duration is measured on the monotonic
/// clock and does not move (a 2-hour window does not end early); a countdown to a date follows the date.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct WallClockJumpTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  nonisolated static let day = Duration.seconds(86_400)
  nonisolated static let twoHours = Duration.seconds(7_200)

  /// How the engine learns of the jump.
  enum Notice: CaseIterable, Sendable {
    /// `wallClockDidChange()`, as on `NSSystemClockDidChange`.
    case told
    /// Noticed by itself at its next wake-up.
    case noticed
  }

  /// Within a microsecond: dates are `Double`s, so conversions through them are not exact.
  static func isClose(_ lhs: Duration?, _ rhs: Duration) -> Bool {
    guard let lhs else { return false }
    let difference = lhs - rhs
    return difference < .microseconds(1) && difference > .microseconds(-1)
  }

  @Test(arguments: [day, .zero - day], Notice.allCases)
  func durationsStayExactAndDatesAreReanchored(jump: Duration, notice: Notice) throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let recorder = Recorder<String, Snapshot>()
    let byDuration = engine.add(
      Countdown(duration: Self.twoHours, startingAt: clock.now), display: .seconds,
      onChange: recorder.onChange("duration"), onFinish: recorder.onFinish("duration"))
    let byDate = try engine.add(
      until: clock.currentDate.addingTimeInterval(7_200), display: .seconds,
      onChange: recorder.onChange("date"), onFinish: recorder.onFinish("date"))
    let board = engine.board(of: String.self, display: .seconds)
    let finishing = board.onFinish { recorder.finished("row \($0)") }
    defer { finishing.cancel() }
    board.put("duration", Countdown(duration: Self.twoHours, startingAt: clock.now), at: clock.now)
    board.apply(.upserted([BoardRow(id: "date", deadline: .until(clock.currentDate.addingTimeInterval(7_200)))]))
    clock.advance(by: .seconds(60))
    engine._serveDue()

    clock.jumpWallClock(by: jump)
    switch notice {
    case .told:
      engine.wallClockDidChange()
      // Told off the main actor: the main-actor updates wait for the next hop, made here by hand.
      engine._serveDue()
    case .noticed: engine._serveDue()
    }
    let now = clock.now
    let expectedByDate = Self.twoHours - .seconds(60) - jump
    #expect(byDuration.countdown?.remaining(at: now) == Self.twoHours - .seconds(60))
    #expect(board.countdown(for: "duration")?.remaining(at: now) == Self.twoHours - .seconds(60))
    // The countdown to the date moved with it: what it shows says so, and so does its handle while it
    // runs (once over, at a jump forward, the engine lets go of it).
    #expect(Self.isClose(recorder.last("date")?.remaining, expectedByDate))
    if jump > .zero {
      #expect(!byDate.isActive)
    } else {
      #expect(Self.isClose(byDate.countdown?.remaining(at: now), expectedByDate))
    }
    #expect(Self.isClose(board.countdown(for: "date")?.remaining(at: now), expectedByDate))
    #expect(recorder.last("duration")?.value == .seconds(7_140))
    if jump > .zero {
      // The date has passed: the countdown to it has finished, once.
      #expect(recorder.last("date")?.isFinished == true)
      #expect(recorder.finishes["date"] == 1)
      #expect(recorder.finishes["row date"] == 1)
    } else {
      #expect(recorder.last("date")?.value == .seconds(7_140 + 86_400))
      #expect(recorder.finishes["date"] == nil)
    }
    #expect(recorder.finishes["duration"] == nil)
    #expect(recorder.finishes["row duration"] == nil)

    // The same jump is not applied twice.
    engine._serveDue()
    engine.wallClockDidChange()
    #expect(Self.isClose(board.countdown(for: "date")?.remaining(at: now), expectedByDate))
    if jump <= .zero { #expect(Self.isClose(byDate.countdown?.remaining(at: now), expectedByDate)) }

    // The duration-based ones end on time, each once.
    clock.advance(by: Self.twoHours)
    engine._serveDue()
    #expect(recorder.finishes["duration"] == 1)
    #expect(recorder.finishes["row duration"] == 1)
    #expect(recorder.finishes["date"] == (jump > .zero ? 1 : nil))
    #expect(recorder.finishes["row date"] == (jump > .zero ? 1 : nil))
  }

  @Test func theDriverNoticesAJumpAtItsNextWakeUp() async throws {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let recorder = Recorder<String, Snapshot>()
    let byDate = try engine.add(
      until: clock.currentDate.addingTimeInterval(7_200), display: .minutes,
      onChange: recorder.onChange("date"), onFinish: recorder.onFinish("date"))
    await waitUntil("the first snapshot arrived") { recorder.count("date") == 1 }
    await waitForSleeper(clock)
    let wake = try #require(clock.sleeperDeadlines.first)

    clock.jumpWallClock(by: .zero - Self.day)
    clock.advance(to: wake)
    await waitUntil("the re-anchored value arrived") { recorder.count("date") == 2 }
    #expect(recorder.last("date")?.value == .seconds(7_140 + 86_400))
    #expect(Self.isClose(byDate.countdown?.remaining(at: clock.now), Self.twoHours + Self.day - wake.offset))
  }

  @Test func extendingACountdownToADateSurvivesAJump() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let handle = try engine.add(until: clock.currentDate.addingTimeInterval(600), display: .seconds) { _ in }
    handle.extend(by: .seconds(30))
    handle.extend(by: .seconds(-10))
    clock.jumpWallClock(by: .seconds(3_600))
    engine.wallClockDidChange()
    #expect(Self.isClose(handle.countdown?.remaining(at: clock.now), .seconds(620 - 3_600)))
  }

  @Test func aPausedCountdownToADateKeepsItsFrozenTime() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let handle = try engine.add(until: clock.currentDate.addingTimeInterval(600), display: .seconds) { _ in }
    clock.advance(by: .seconds(100))
    handle.pause()
    clock.jumpWallClock(by: Self.day)
    engine.wallClockDidChange()
    #expect(Self.isClose(handle.countdown?.remaining(at: clock.now), .seconds(500)))
    handle.resume()
    engine.wallClockDidChange()
    #expect(Self.isClose(handle.countdown?.remaining(at: clock.now), .seconds(500)))
  }

  @Test func aCountdownRetargetedToADateWhilePausedDoesNotLoseItsPauseWhenTheClockIsChecked() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let handle = engine.add(Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds) { _ in }
    handle.pause()
    // Paused: the new end is applied as if it had been the end when the countdown was paused.
    try handle.retarget(to: clock.currentDate.addingTimeInterval(600))
    clock.advance(by: .seconds(100))
    handle.resume()
    #expect(Self.isClose(handle.countdown?.remaining(at: clock.now), .seconds(600)))
    // Nothing moved the wall clock: re-anchoring must change nothing.
    engine.wallClockDidChange()
    #expect(Self.isClose(handle.countdown?.remaining(at: clock.now), .seconds(600)))
  }

  @Test func aBoardRowSetToADateWhileTheBoardIsPausedKeepsItsFrozenTime() throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    board.pauseAll()
    board.apply(.upserted([BoardRow(id: 1, deadline: .until(clock.currentDate.addingTimeInterval(60)))]))
    clock.advance(by: .seconds(30))
    board.resumeAll()
    #expect(Self.isClose(board.countdown(for: 1)?.remaining(at: clock.now), .seconds(60)))
    engine.wallClockDidChange()
    #expect(Self.isClose(board.countdown(for: 1)?.remaining(at: clock.now), .seconds(60)))
  }
}
