// swift-format-ignore-file
// The regions below are the code of CountdownCore.docc's article on wall-clock dates and server time,
// byte for byte: keep the two in step (.ci/check-doc-blocks).
import CountdownCore
import Foundation
import Testing

@Suite struct WallClockAndServerTimeExamples {
  let order = Order(id: 7, title: "Fitting: Ada L.", fittingEndsAt: Date().addingTimeInterval(5_400))
  let api = API()

  @Test func convertAndSynchronise() async throws {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    let clock = ContinuousClock()
    var timeline = try WallClockTimeline(anchorDate: Date(), anchorInstant: clock.now)
    // end docs

    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    let end = try timeline.instant(for: order.fittingEndsAt)  // a Date from the database
    let remaining = clock.now.duration(to: end)
    let endsAt = timeline.date(for: end)
    // end docs
    #expect(abs(endsAt.timeIntervalSince(order.fittingEndsAt)) < 1e-6)
    #expect(remaining > .seconds(5_300) && remaining <= .seconds(5_400))

    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    let expected = try timeline.withReferenceOffset(.zero).date(for: clock.now)
    if abs(Date().timeIntervalSince(expected)) > 1 {
      timeline = try timeline.reanchored(date: Date(), instant: clock.now)
    }
    // end docs

    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    var estimator = ServerTimeEstimator<ContinuousClock.Instant>(maximumRoundTrip: .seconds(2))

    func synchronise() async throws {
      let sent = clock.now
      let serverDate = try await api.serverTime()
      let received = clock.now
      try estimator.add(.init(sent: sent, serverDate: serverDate, received: received))
      timeline = try estimator.apply(to: timeline)
    }
    // end docs
    try await synchronise()
    // The stub server reads the local clock: the offset is within the (tiny) round trip.
    #expect(abs(timeline.referenceOffset.timeInterval) < 0.5)

    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    timeline = try estimator.apply(to: timeline.reanchored(date: Date(), instant: clock.now))
    // end docs
    #expect(abs(timeline.referenceOffset.timeInterval) < 0.5)
  }

  /// The instant `order`'s window ends at on `timeline`, or nil (and a message) if its date makes no sense.
  func end(of order: Order, on timeline: WallClockTimeline<ContinuousClock.Instant>) -> ContinuousClock.Instant? {
    // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
    var end: ContinuousClock.Instant?
    do {
      end = try timeline.instant(for: order.fittingEndsAt)
    } catch {
      print("Order \(order.id): \(error)")   // says what is wrong and what to look for
    }
    // end docs
    return end
  }

  @Test func aDateThatMakesNoSenseIsAnError() throws {
    let timeline = try WallClockTimeline(anchorDate: Date(), anchorInstant: ContinuousClock.now)
    #expect(end(of: Order(id: 1, title: "", fittingEndsAt: Date(timeIntervalSince1970: .nan)), on: timeline) == nil)
    #expect(end(of: order, on: timeline) != nil)
  }
}

// docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
@MainActor final class Deadlines {
  private let clock = ContinuousClock()
  private var timeline: WallClockTimeline<ContinuousClock.Instant>
  private var orders: [Order] = []
  private(set) var ends: [Order.ID: ContinuousClock.Instant] = [:]

  init() throws {
    timeline = try WallClockTimeline(anchorDate: Date(), anchorInstant: clock.now)
  }

  func track(_ orders: [Order]) throws {
    self.orders = orders
    try convert()
  }

  /// The wall clock was changed: re-anchor, and convert every date again.
  func wallClockDidChange() throws {
    timeline = try timeline.reanchored(date: Date(), instant: clock.now)
    try convert()
  }

  /// Where the system does not say (Linux), compare the two clocks now and then.
  func checkWallClock() throws {
    let expected = try timeline.withReferenceOffset(.zero).date(for: clock.now)
    if abs(Date().timeIntervalSince(expected)) > 1 { try wallClockDidChange() }
  }

  private func convert() throws {
    ends = [:]
    for order in orders { ends[order.id] = try timeline.instant(for: order.fittingEndsAt) }
  }
}
// end docs

/// Registers `deadlines` for the system's notice that the wall clock changed.
@MainActor func observeClockChanges(of deadlines: Deadlines) {
  // docs: Sources/CountdownCore/CountdownCore.docc/Articles/WallClockAndServerTime.md
  #if canImport(Darwin)
  NotificationCenter.default.addObserver(forName: .NSSystemClockDidChange, object: nil, queue: .main) { _ in
    MainActor.assumeIsolated { try? deadlines.wallClockDidChange() }
  }
  #endif
  // end docs
}

@MainActor @Suite struct DeadlinesExample {
  @Test func reanchoringConvertsDatesAgain() throws {
    let deadlines = try Deadlines()
    let order = Order(id: 3, title: "", fittingEndsAt: Date().addingTimeInterval(600))
    try deadlines.track([order])
    let before = try #require(deadlines.ends[3])
    try deadlines.wallClockDidChange()
    try deadlines.checkWallClock()
    let after = try #require(deadlines.ends[3])
    #expect(abs(before.duration(to: after).timeInterval) < 0.01)
    observeClockChanges(of: deadlines)
  }
}
