import TestSupport
import CountdownCore
import Foundation
import Testing

@Suite struct ServerTimeEstimatorTests {
  typealias Estimator = ServerTimeEstimator<TestInstant>
  typealias Sample = Estimator.Sample

  static let anchorDate = Date(timeIntervalSinceReferenceDate: 770_000_000.5)
  static let anchor = TestInstant(.seconds(5_000))

  /// A sample of a server `trueOffset` ahead of `timeline`'s local clock, sent at `sent`, whose
  /// request takes `outbound` to arrive, is stamped and answered after `processing`, and whose
  /// response takes `inbound` to come back. The server stamps its date at the start of processing.
  static func sample(
    on timeline: WallClockTimeline<TestInstant>, trueOffset: Duration, sent: TestInstant,
    outbound: Duration, processing: Duration = .zero, inbound: Duration
  ) throws -> Sample {
    let stamped = sent.advanced(by: outbound)
    let serverDate = try timeline.withReferenceOffset(trueOffset).date(for: stamped)
    return Sample(sent: sent, serverDate: serverDate, received: stamped.advanced(by: processing + inbound))
  }

  /// A sample with midpoint `midpoint` and round trip `roundTrip`, stamped with the local date.
  static func sample(around midpoint: TestInstant, roundTrip: Duration) -> Sample {
    Sample(
      sent: midpoint.advanced(by: .zero - roundTrip / 2),
      serverDate: anchorDate + Double(anchor.duration(to: midpoint).components.seconds),
      received: midpoint.advanced(by: roundTrip / 2))
  }

  @Test(arguments: WallClockTimelineTests.seeds)
  func estimateIsWithinHalfTheRoundTripOfTheTruth(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let trueOffset = Duration.random(seconds: -3_600...3_599, using: &generator)
    let timeline = try WallClockTimeline(
      anchorDate: .random(secondsSinceReferenceDate: 600_000_000...900_000_000, using: &generator),
      anchorInstant: TestInstant(.random(seconds: 0...1_000_000, using: &generator)))
    var estimator = Estimator(driftPerSecond: .zero)
    var samples: [Sample] = []
    var sent = timeline.anchorInstant
    for _ in 0..<200 {
      sent = sent.advanced(by: .random(seconds: 0...30, using: &generator))
      // Independent delays each way: the network is asymmetric.
      let sample = try Self.sample(
        on: timeline, trueOffset: trueOffset, sent: sent,
        outbound: .milliseconds(Int64.random(in: 1...300, using: &generator)),
        processing: .microseconds(Int64.random(in: 0...5_000, using: &generator)),
        inbound: .milliseconds(Int64.random(in: 1...300, using: &generator)))
      let becameBest = try estimator.add(sample)
      samples.append(sample)

      let fastest = try #require(samples.map(\.roundTrip).min())
      let best = try #require(estimator.best)
      #expect(best.roundTrip == fastest, "seed \(seed)")
      #expect(becameBest == (best == sample), "seed \(seed)")
      let estimate = try #require(try estimator.estimate(against: timeline))
      #expect(estimate.uncertainty == fastest / 2, "seed \(seed)")
      // Within half the round trip, give or take the resolution of a `Date`.
      #expect(estimate.offset.isClose(to: trueOffset, within: estimate.uncertainty + .microseconds(1)), "seed \(seed)")
    }
    // Ties go to the newer sample: the kept one is the last of those with the lowest round trip.
    let fastest = samples.map(\.roundTrip).min()
    #expect(estimator.best == samples.last { $0.roundTrip == fastest })
  }

  @Test func improvesWhenAFasterSampleArrives() throws {
    let timeline = try WallClockTimeline(anchorDate: Self.anchorDate, anchorInstant: Self.anchor)
    let trueOffset = Duration.milliseconds(2_500)
    var estimator = Estimator(driftPerSecond: .zero)
    // A slow, lopsided sample: 380 ms out, 20 ms back.
    let slow = try Self.sample(
      on: timeline, trueOffset: trueOffset, sent: Self.anchor, outbound: .milliseconds(380), inbound: .milliseconds(20))
    #expect(try estimator.add(slow))
    let first = try #require(try estimator.estimate(against: timeline))
    #expect(first.uncertainty == .milliseconds(200))
    #expect(first.offset.isClose(to: trueOffset + .milliseconds(180)))

    let fast = try Self.sample(
      on: timeline, trueOffset: trueOffset, sent: Self.anchor.advanced(by: .seconds(10)),
      outbound: .milliseconds(15), inbound: .milliseconds(25))
    #expect(try estimator.add(fast))
    #expect(estimator.best == fast)
    let second = try #require(try estimator.estimate(against: timeline))
    #expect(second.uncertainty == .milliseconds(20))
    #expect(second.offset.isClose(to: trueOffset - .milliseconds(5)))

    let slower = try Self.sample(
      on: timeline, trueOffset: trueOffset, sent: Self.anchor.advanced(by: .seconds(20)),
      outbound: .milliseconds(50), inbound: .milliseconds(50))
    #expect(try estimator.add(slower) == false)
    #expect(estimator.best == fast)
  }

  @Test func tiesGoToTheNewerSample() throws {
    var estimator = Estimator(driftPerSecond: .zero)
    let older = Self.sample(around: Self.anchor, roundTrip: .milliseconds(40))
    let newer = Self.sample(around: Self.anchor.advanced(by: .seconds(60)), roundTrip: .milliseconds(40))
    #expect(try estimator.add(newer))
    // Added late (a request that was in flight longer), the older sample does not win the tie.
    #expect(try estimator.add(older) == false)
    #expect(estimator.best == newer)

    var inOrder = Estimator(driftPerSecond: .zero)
    try inOrder.add(older)
    #expect(try inOrder.add(newer))
    #expect(inOrder.best == newer)

    // The same instants with a different server date: a full tie, which the later addition wins.
    let repeated = Sample(sent: newer.sent, serverDate: newer.serverDate + 1, received: newer.received)
    #expect(try inOrder.add(repeated))
    #expect(inOrder.best == repeated)
  }

  @Test func samplesAgeByTheDriftAllowance() throws {
    // Default drift: 15 µs per second. A 20 ms sample is worth 10 ms + 15 µs per second of age;
    // a 100 ms sample is worth 50 ms, so it wins once the first is 2,667 s old (10 + 40.005 ms).
    var estimator = Estimator()
    #expect(estimator.driftPerSecond == .microseconds(15))
    let fast = Self.sample(around: Self.anchor, roundTrip: .milliseconds(20))
    try estimator.add(fast)
    #expect(estimator.uncertainty(at: Self.anchor) == .milliseconds(10))
    #expect(estimator.uncertainty(at: Self.anchor.advanced(by: .milliseconds(500))) == .microseconds(10_015))
    #expect(estimator.uncertainty(at: Self.anchor.advanced(by: .seconds(1_000))) == .milliseconds(25))

    let notYet = Self.sample(around: Self.anchor.advanced(by: .seconds(2_666)), roundTrip: .milliseconds(100))
    #expect(try estimator.add(notYet) == false)
    let now = Self.sample(around: Self.anchor.advanced(by: .seconds(2_667)), roundTrip: .milliseconds(100))
    #expect(try estimator.add(now))
    #expect(estimator.best == now)
    #expect(
      try estimator.estimate(against: WallClockTimeline(anchorDate: Self.anchorDate, anchorInstant: Self.anchor))?
        .uncertainty
        == .milliseconds(50))
  }

  @Test func rejectsInvalidSamplesAndStaysUnchanged() throws {
    var estimator = Estimator(maximumRoundTrip: .milliseconds(500))
    let good = Self.sample(around: Self.anchor, roundTrip: .milliseconds(300))
    try estimator.add(good)
    let before = estimator

    let backwards = Sample(
      sent: Self.anchor, serverDate: Self.anchorDate, received: Self.anchor.advanced(by: .milliseconds(-1)))
    #expect(throws: WallClockTimelineError.receivedBeforeSent(roundTrip: .milliseconds(-1))) {
      try estimator.add(backwards)
    }
    let tooSlow = Self.sample(around: Self.anchor, roundTrip: .milliseconds(600))
    #expect(throws: WallClockTimelineError.roundTripTooLong(.milliseconds(600), maximum: .milliseconds(500))) {
      try estimator.add(tooSlow)
    }
    #expect(estimator == before)

    // Exactly at the maximum, and instantaneous, are both fine.
    #expect(try estimator.add(Self.sample(around: Self.anchor, roundTrip: .milliseconds(500))) == false)
    #expect(try estimator.add(Sample(sent: Self.anchor, serverDate: Self.anchorDate, received: Self.anchor)))
    #expect(estimator.uncertainty(at: Self.anchor) == .zero)
  }

  @Test func withoutSamplesThereIsNoEstimate() throws {
    let estimator = Estimator()
    let timeline = try WallClockTimeline(
      anchorDate: Self.anchorDate, anchorInstant: Self.anchor, referenceOffset: .seconds(7))
    #expect(estimator.best == nil)
    #expect(estimator.uncertainty(at: Self.anchor) == nil)
    #expect(try estimator.estimate(against: timeline) == nil)
    #expect(try estimator.apply(to: timeline) == timeline)
  }

  @Test func estimateIgnoresTheTimelinesOwnOffset() throws {
    var estimator = Estimator()
    try estimator.add(
      Sample(sent: Self.anchor, serverDate: Self.anchorDate + 42, received: Self.anchor.advanced(by: .seconds(2))))
    let local = try WallClockTimeline(anchorDate: Self.anchorDate, anchorInstant: Self.anchor)
    let estimate = try #require(try estimator.estimate(against: local))
    #expect(estimate.offset == .seconds(41))
    #expect(estimate.uncertainty == .seconds(1))
    #expect(try estimator.estimate(against: local.withReferenceOffset(.seconds(-9))) == estimate)
    #expect(try estimator.apply(to: local.withReferenceOffset(.seconds(-9))).referenceOffset == .seconds(41))
  }

  @Test func rejectsAnOffsetFromAnotherClock() throws {
    // Instants 400,000 years from the timeline's anchor: the sample cannot be from the same clock.
    let far = Self.anchor.advanced(by: .seconds(12_623_040_000_000))
    var estimator = Estimator()
    try estimator.add(Sample(sent: far, serverDate: Self.anchorDate, received: far.advanced(by: .milliseconds(10))))
    let timeline = try WallClockTimeline(anchorDate: Self.anchorDate, anchorInstant: Self.anchor)
    let error = #expect(throws: WallClockTimelineError.self) { try estimator.estimate(against: timeline) }
    guard case .referenceOffsetOutOfRange(let offset) = error else {
      Issue.record("expected referenceOffsetOutOfRange, got \(String(describing: error))")
      return
    }
    #expect(offset < .zero - WallClockTimeline<TestInstant>.maximumReferenceOffset)
    #expect(throws: WallClockTimelineError.self) { try estimator.apply(to: timeline) }
  }
}
