import TestSupport
import CountdownCore
import Foundation
import Testing

@Suite struct WallClockTimelineTests {
  static let seeds: [UInt64] = [1, 42, 0xDEAD_BEEF, 20_250_611]
  /// Three years of 365.25 days, in seconds.
  static let threeYears = 3 * 365.25 * 86_400

  /// A timeline anchored between 1990 and 2100, with an instant up to ~4 months from the test
  /// clock's origin and an offset of up to a day either way.
  static func randomTimeline(using generator: inout SeededGenerator) throws -> WallClockTimeline<TestInstant> {
    try WallClockTimeline(
      anchorDate: .random(secondsSinceReferenceDate: -347_000_000...3_124_000_000, using: &generator),
      anchorInstant: TestInstant(.random(seconds: 0...10_000_000, using: &generator)),
      referenceOffset: .random(seconds: -86_400...86_399, using: &generator))
  }

  // MARK: Conversions

  @Test func convertsWithTheOffsetAsDocumented() throws {
    let anchorDate = Date(timeIntervalSinceReferenceDate: 770_000_000)
    // The reference clock (a server) is 5 s ahead of the local wall clock.
    let timeline = try WallClockTimeline(
      anchorDate: anchorDate, anchorInstant: TestInstant(.seconds(100)), referenceOffset: .seconds(5))
    // The server reads anchor + 65 s when the local clock reads anchor + 60 s, 60 s after the anchor instant.
    #expect(try timeline.instant(for: anchorDate + 65) == TestInstant(.seconds(160)))
    #expect(timeline.date(for: TestInstant(.seconds(160))) == anchorDate + 65)
    #expect(timeline.date(for: TestInstant(.seconds(100))) == anchorDate + 5)
    #expect(try timeline.instant(for: anchorDate) == TestInstant(.seconds(95)))
  }

  @Test(arguments: seeds) func dateRoundTripsThroughInstant(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<1_000 {
      let timeline = try Self.randomTimeline(using: &generator)
      let date = timeline.anchorDate + Double.random(in: -Self.threeYears...Self.threeYears, using: &generator)
      let back = timeline.date(for: try timeline.instant(for: date))
      #expect(
        back.isClose(to: date),
        "seed \(seed): \(date.timeIntervalSinceReferenceDate) came back as \(back.timeIntervalSinceReferenceDate)")
    }
  }

  @Test(arguments: seeds) func instantRoundTripsThroughDate(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<1_000 {
      let timeline = try Self.randomTimeline(using: &generator)
      let instant = timeline.anchorInstant.advanced(by: .random(seconds: -94_672_800...94_672_800, using: &generator))
      let back = try timeline.instant(for: timeline.date(for: instant))
      #expect(back.isClose(to: instant), "seed \(seed): \(instant) came back as \(back)")
    }
  }

  @Test(arguments: seeds) func conversionsAreMonotonic(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<100 {
      let timeline = try Self.randomTimeline(using: &generator)
      // Consecutive `Double`s are distinct dates, so they must give strictly increasing instants.
      var date = timeline.anchorDate + Double.random(in: -Self.threeYears...Self.threeYears, using: &generator)
      var previousInstant = try timeline.instant(for: date)
      // Instants nanoseconds apart may share a date, but their dates must never go back.
      var instant = previousInstant
      var previousDate = timeline.date(for: instant)
      for _ in 0..<50 {
        date = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
        let nextInstant = try timeline.instant(for: date)
        #expect(previousInstant < nextInstant, "seed \(seed): \(date.timeIntervalSinceReferenceDate)")
        previousInstant = nextInstant

        instant = instant.advanced(by: .nanoseconds(Int64.random(in: 0...200, using: &generator)))
        let nextDate = timeline.date(for: instant)
        #expect(previousDate <= nextDate, "seed \(seed): \(instant)")
        previousDate = nextDate
      }
    }
  }

  @Test(arguments: seeds) func offsetShiftsInstantsAndDates(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<1_000 {
      let local = try Self.randomTimeline(using: &generator).withReferenceOffset(.zero)
      let offset = Duration.random(seconds: -3_600_000...3_600_000, using: &generator)
      let shifted = try local.withReferenceOffset(offset)
      let date = local.anchorDate + Double.random(in: -Self.threeYears...Self.threeYears, using: &generator)
      // The reference clock reads `date` `offset` earlier than the local clock does.
      #expect(try shifted.instant(for: date) == local.instant(for: date).advanced(by: .zero - offset), "seed \(seed)")
      let instant = local.anchorInstant.advanced(by: .random(seconds: -94_672_800...94_672_800, using: &generator))
      let expected =
        local.date(for: instant) + Double(offset.components.seconds) + Double(offset.components.attoseconds) * 1e-18
      #expect(shifted.date(for: instant).isClose(to: expected), "seed \(seed)")
    }
  }

  @Test func worksWithContinuousClockInstants() throws {
    let now = ContinuousClock.now
    let date = Date(timeIntervalSinceReferenceDate: 770_000_000)
    let timeline = try WallClockTimeline(anchorDate: date, anchorInstant: now)
    #expect(try timeline.instant(for: date + 7_200) == now + .seconds(7_200))
    #expect(timeline.date(for: now - .seconds(60)) == date - 60)
  }

  // MARK: Re-anchoring

  /// The user moves the wall clock by `jump` ten minutes after the countdowns were set up.
  @Test(arguments: [Duration.seconds(86_400), .seconds(-86_400)])
  func reanchoringAfterWallClockJump(jump: Duration) throws {
    let start = TestInstant(.seconds(1_000))
    let startDate = Date(timeIntervalSinceReferenceDate: 770_000_000.25)
    let local = try WallClockTimeline(anchorDate: startDate, anchorInstant: start)
    // The server is 3 s ahead; one sample with a symmetric 40 ms round trip says so.
    var estimator = ServerTimeEstimator<TestInstant>(driftPerSecond: .zero)
    try estimator.add(.init(sent: start, serverDate: startDate + 3.02, received: start.advanced(by: .milliseconds(40))))
    let synced = try estimator.apply(to: local)
    #expect(synced.referenceOffset.isClose(to: .seconds(3)))

    // A deadline the server sent as a date, and a two-hour window started locally (a duration).
    let deadline = startDate + 7_200
    let deadlineInstant = try synced.instant(for: deadline)
    #expect(deadlineInstant.isClose(to: start.advanced(by: .seconds(7_197))))
    let windowEnd = start.advanced(by: .seconds(7_200))

    let jumpSeconds = Double(jump.components.seconds)
    let now = start.advanced(by: .seconds(600))
    let nowDate = startDate + 600 + jumpSeconds

    // Re-anchored with the old offset, the timeline reads the server deadline `jump` earlier.
    let stale = try synced.reanchored(date: nowDate, instant: now)
    #expect(stale.referenceOffset == synced.referenceOffset)
    #expect(try stale.instant(for: deadline).isClose(to: deadlineInstant.advanced(by: .zero - jump)))

    // Estimated again against the new anchor, the offset absorbs the jump: the server clock did not
    // move, and neither does the deadline.
    let resynced = try estimator.apply(to: stale)
    #expect(resynced.referenceOffset.isClose(to: .seconds(3) - jump))
    #expect(try resynced.instant(for: deadline).isClose(to: deadlineInstant))
    #expect(resynced.date(for: windowEnd).isClose(to: synced.date(for: windowEnd)))

    // Against the local wall clock alone, a date target follows the wall clock by `jump`...
    let localAfter = try local.reanchored(date: nowDate, instant: now)
    #expect(try localAfter.instant(for: deadline).isClose(to: local.instant(for: deadline).advanced(by: .zero - jump)))
    // ...while the duration target is still two hours after the start, only read differently.
    #expect(localAfter.date(for: windowEnd).isClose(to: local.date(for: windowEnd) + jumpSeconds))
    #expect(start.duration(to: windowEnd) == .seconds(7_200))
  }

  // MARK: Validation

  @Test(arguments: [
    Date.distantPast, .distantFuture, WallClockTimeline<TestInstant>.supportedDates.lowerBound,
    WallClockTimeline<TestInstant>.supportedDates.upperBound,
  ])
  func acceptsFarDates(date: Date) throws {
    let timeline = try WallClockTimeline(
      anchorDate: Date(timeIntervalSinceReferenceDate: 770_000_000), anchorInstant: TestInstant.zero)
    let instant = try timeline.instant(for: date)
    #expect(timeline.date(for: instant) == date)
    let anchoredFar = try timeline.reanchored(date: date, instant: .zero)
    #expect(try anchoredFar.instant(for: date) == .zero)
    var estimator = ServerTimeEstimator<TestInstant>()
    #expect(try estimator.add(.init(sent: .zero, serverDate: date, received: .zero)))
  }

  enum Rejection: Sendable { case nonFinite, outOfRange }

  @Test(arguments: [
    (Double.nan, Rejection.nonFinite), (.infinity, .nonFinite), (-.infinity, .nonFinite),
    (1e300, .outOfRange), (-1e300, .outOfRange), (3_155_760_000_000.0.nextUp, .outOfRange),
    (-(3_155_760_000_000.0.nextUp), .outOfRange),
  ])
  func rejectsBadDates(seconds: Double, rejection: Rejection) throws {
    let bad = Date(timeIntervalSinceReferenceDate: seconds)
    func expected(_ role: WallClockTimelineError.DateRole) -> WallClockTimelineError {
      switch rejection {
      case .nonFinite: .nonFiniteDate(role)
      case .outOfRange: .dateOutOfRange(role, bad)
      }
    }
    let timeline = try WallClockTimeline(
      anchorDate: Date(timeIntervalSinceReferenceDate: 770_000_000), anchorInstant: TestInstant.zero)
    #expect(throws: expected(.anchorDate)) { try WallClockTimeline(anchorDate: bad, anchorInstant: TestInstant.zero) }
    #expect(throws: expected(.anchorDate)) { try timeline.reanchored(date: bad, instant: .zero) }
    #expect(throws: expected(.targetDate)) { try timeline.instant(for: bad) }
    var estimator = ServerTimeEstimator<TestInstant>()
    #expect(throws: expected(.serverDate)) { try estimator.add(.init(sent: .zero, serverDate: bad, received: .zero)) }
    #expect(estimator.best == nil)
  }

  @Test func rejectsAbsurdReferenceOffsets() throws {
    let limit = WallClockTimeline<TestInstant>.maximumReferenceOffset
    #expect(limit == .seconds(6_311_520_000_000))
    let date = Date(timeIntervalSinceReferenceDate: 770_000_000)
    let timeline = try WallClockTimeline(anchorDate: date, anchorInstant: TestInstant.zero)
    #expect(try timeline.withReferenceOffset(limit).referenceOffset == limit)
    #expect(try timeline.withReferenceOffset(.zero - limit).referenceOffset == .zero - limit)
    for offset in [limit + .nanoseconds(1), .zero - limit - .nanoseconds(1), .seconds(Int64.max), .seconds(Int64.min)] {
      #expect(throws: WallClockTimelineError.referenceOffsetOutOfRange(offset)) {
        try timeline.withReferenceOffset(offset)
      }
      #expect(throws: WallClockTimelineError.referenceOffsetOutOfRange(offset)) {
        try WallClockTimeline(anchorDate: date, anchorInstant: TestInstant.zero, referenceOffset: offset)
      }
    }
    // The widest combination still converts without overflowing.
    let widest = try WallClockTimeline(
      anchorDate: WallClockTimeline<TestInstant>.supportedDates.upperBound, anchorInstant: TestInstant.zero,
      referenceOffset: limit)
    #expect(
      try widest.instant(for: WallClockTimeline<TestInstant>.supportedDates.lowerBound)
        == TestInstant(.zero - limit - limit))
  }

  @Test func farInstantsGiveFarDatesWithoutTrapping() throws {
    let timeline = try WallClockTimeline(
      anchorDate: .distantFuture, anchorInstant: TestInstant.zero,
      referenceOffset: WallClockTimeline<TestInstant>.maximumReferenceOffset)
    for seconds in [Int64.max / 2, Int64.min / 2] {
      let date = timeline.date(for: TestInstant(.seconds(seconds)))
      #expect(date.timeIntervalSinceReferenceDate.isFinite)
      #expect(throws: WallClockTimelineError.dateOutOfRange(.targetDate, date)) { try timeline.instant(for: date) }
    }
  }

  @Test func errorsExplainThemselves() {
    let errors: [(WallClockTimelineError, [String])] = [
      (.nonFiniteDate(.targetDate), ["target date", "finite", "distantFuture"]),
      (
        .dateOutOfRange(.serverDate, Date(timeIntervalSinceReferenceDate: 1e300)),
        ["server date", "1e+300", "100,000 years"]
      ),
      (.referenceOffsetOutOfRange(.seconds(Int64.max)), ["reference offset", "200,000 years"]),
      (.receivedBeforeSent(roundTrip: .milliseconds(-3)), ["0.003 seconds before it was sent", "same clock"]),
      (.roundTripTooLong(.seconds(2), maximum: .seconds(1)), ["2.0 seconds", "1.0 seconds", "maximumRoundTrip"]),
    ]
    for (error, phrases) in errors {
      for phrase in phrases {
        #expect(error.description.contains(phrase), "\(error.description)")
      }
      #expect(error.errorDescription == error.description)
      #expect(error.localizedDescription == error.description)
    }
  }
}
