import CountdownKit
import CountdownTesting
import Foundation
import Observation
import Testing

/// `FollowingCountdownModel`: a main-actor model that follows a source of dates, owns its subscription,
/// survives its views going and coming back, and counts again when a later date arrives after it
/// finished. Time comes from a manual clock; the source's task runs on the main actor, so the tests
/// yield until it applied what the source sent.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct FollowingCountdownModelTests {
  typealias Model = FollowingCountdownModel<RoundedDisplay, ManualClock>

  /// A source of optional dates fed by hand, that reports when its reader let go of it.
  final class Source<Element: Sendable>: Sendable {
    let elements: AsyncStream<Element>
    let continuation: AsyncStream<Element>.Continuation
    private let terminated = Lock(false)

    init() {
      (elements, continuation) = AsyncStream.makeStream(of: Element.self)
      continuation.onTermination = { [weak self] _ in self?.terminated.withLock { $0 = true } }
    }

    var isTerminated: Bool { terminated.withLock { $0 } }
  }

  @Test func countsToTheLatestDateTheSourceGives() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let source = Source<Date?>()
    let model = Model(engine: engine, display: .seconds, total: .seconds(120))
    model.follow(source.elements)
    #expect(model.snapshot == nil && model.value == nil, "nothing before the first date")

    source.continuation.yield(start.addingTimeInterval(60))
    await waitUntil("the first date is shown") { model.value == .seconds(60) }
    #expect(model.progress == 0.5)
    #expect(model.target == (try? StoredCountdown(end: start.addingTimeInterval(60), total: .seconds(120))))
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(model.value == .seconds(50))

    // Later, then earlier: each date counts at once.
    source.continuation.yield(start.addingTimeInterval(300))
    await waitUntil("the later date is shown") { model.value == .seconds(290) }
    source.continuation.yield(start.addingTimeInterval(15))
    await waitUntil("the earlier date is shown") { model.value == .seconds(5) }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(model.value == .seconds(4))
    #expect(engine.count == 1, "one countdown, set anew at each date")
  }

  @Test func countsAgainWhenALaterDateArrivesAfterItFinished() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let source = Source<Date?>()
    var finishes = 0
    let model = Model(engine: engine, display: .seconds) { finishes += 1 }
    model.follow(source.elements)

    source.continuation.yield(start.addingTimeInterval(2))
    await waitUntil("the date is shown") { model.value == .seconds(2) }
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(model.isFinished && model.value == .zero)
    #expect(finishes == 1)

    // The window was closed, then extended: it reopens and counts again, and finishes again.
    source.continuation.yield(clock.currentDate.addingTimeInterval(30))
    await waitUntil("it counts again") { model.value == .seconds(30) }
    #expect(!model.isFinished)
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(model.value == .seconds(20))
    clock.advance(by: .seconds(20))
    engine._serveDue()
    #expect(model.isFinished)
    #expect(finishes == 2, "once per date that passed")
  }

  @Test func aDeletedDateShowsNothingUntilTheNextOne() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let source = Source<Date?>()
    var finishes = 0
    let model = Model(engine: engine, display: .seconds) { finishes += 1 }
    model.follow(source.elements)

    source.continuation.yield(start.addingTimeInterval(5))
    await waitUntil("the date is shown") { model.value == .seconds(5) }
    source.continuation.yield(nil)
    await waitUntil("nothing is shown") { model.snapshot == nil }
    #expect(model.value == nil && model.target == nil && !model.isFinished && !model.isPaused)
    #expect(engine.count == 0, "its countdown was cancelled")
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(finishes == 0, "a deleted date does not finish")

    source.continuation.yield(clock.currentDate.addingTimeInterval(8))
    await waitUntil("the next date is shown") { model.value == .seconds(8) }
  }

  @Test func theSourceCanPauseAndResumeIt() async throws {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let source = Source<StoredCountdown?>()
    let model = Model(engine: engine, display: .seconds)
    model.follow(source.elements)

    source.continuation.yield(try StoredCountdown(end: start.addingTimeInterval(60), total: .seconds(60)))
    await waitUntil("running") { model.value == .seconds(60) }
    clock.advance(by: .seconds(20))
    engine._serveDue()
    #expect(model.value == .seconds(40))

    // Paused by the source with 40 s left: the time stands still.
    let pausedAt = clock.currentDate
    source.continuation.yield(
      try StoredCountdown(state: .paused(remaining: .seconds(40), since: pausedAt), total: .seconds(60)))
    await waitUntil("paused") { model.isPaused }
    clock.advance(by: .seconds(30))
    engine._serveDue()
    #expect(model.value == .seconds(40))
    #expect(model.progress.map { abs($0 - 2.0 / 3) < 1e-9 } == true)

    // Running again, to a new end.
    source.continuation.yield(try StoredCountdown(end: clock.currentDate.addingTimeInterval(40), total: .seconds(60)))
    await waitUntil("running again") { !model.isPaused }
    #expect(model.value == .seconds(40))
    clock.advance(by: .seconds(15))
    engine._serveDue()
    #expect(model.value == .seconds(25))
  }

  /// A view that reads the model, goes away (no observer), and comes back: it reads the live value,
  /// and is told of the next change. The model, not the view, owns the following.
  @Test func aViewThatDisappearsAndComesBackShowsTheLiveValue() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let source = Source<Date?>()
    let model = Model(engine: engine, display: .seconds)
    model.follow(source.elements)
    source.continuation.yield(start.addingTimeInterval(60))
    await waitUntil("shown") { model.value == .seconds(60) }

    // On screen: the view's body reads the value, and is invalidated when it changes.
    let onScreen = ObservationCounter()
    trackOnce(onScreen) { _ = model.value }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(onScreen.take() == 1)

    // Off screen: nothing observes the model. The source moves the date, and time passes.
    source.continuation.yield(start.addingTimeInterval(600))
    await waitUntil("the model followed while no view was there") { model.value == .seconds(599) }
    clock.advance(by: .seconds(100))
    engine._serveDue()
    #expect(onScreen.value == 0, "the view that went away is not told")

    // Back on screen: the live value, and the next change invalidates the view again.
    let again = ObservationCounter()
    trackOnce(again) { #expect(model.value == .seconds(499)) }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(again.take() == 1)
    #expect(model.value == .seconds(498))
    #expect(!source.isTerminated, "still following")
  }

  @Test func theModelOwnsItsSubscriptionAndItsCountdown() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source<Date?>()
    weak var released: Model?
    do {
      let model = Model(engine: engine, display: .seconds)
      released = model
      model.follow(source.elements)
      source.continuation.yield(clock.currentDate.addingTimeInterval(60))
      await waitUntil("shown") { model.value == .seconds(60) }
      #expect(engine.count == 1)
    }
    #expect(released == nil, "the reading task does not keep the model")
    await waitUntil("the source is no longer read") { source.isTerminated }
    #expect(engine.count == 0, "the countdown went with the model")
  }

  @Test func followingAnotherSourceOrStoppingLetsGoOfTheOneBefore() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.currentDate
    let first = Source<Date?>()
    let second = Source<Date>()
    let model = Model(engine: engine, display: .seconds)
    model.follow(first.elements)
    first.continuation.yield(start.addingTimeInterval(60))
    await waitUntil("the first source's date") { model.value == .seconds(60) }

    model.follow(second.elements)
    await waitUntil("the first source is let go of") { first.isTerminated }
    #expect(model.value == .seconds(60), "the countdown goes on until the new source speaks")
    second.continuation.yield(start.addingTimeInterval(90))
    await waitUntil("the second source's date") { model.value == .seconds(90) }

    model.stopFollowing()
    await waitUntil("the second source is let go of") { second.isTerminated }
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(model.value == .seconds(80), "it goes on to the last date")
  }

  /// Gives its dates, then fails, and says when it did.
  struct FailingSource: AsyncSequence, Sendable {
    struct Offline: Error {}
    final class Flag: Sendable {
      private let value = Lock(false)
      var isSet: Bool { value.withLock { $0 } }
      func set() { value.withLock { $0 = true } }
    }

    let dates: [Date?]
    let failed = Flag()

    struct AsyncIterator: AsyncIteratorProtocol {
      var dates: [Date?]
      let failed: Flag

      mutating func next() async throws -> Date?? {
        guard dates.isEmpty else { return dates.removeFirst() }
        failed.set()
        throw Offline()
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(dates: dates, failed: failed) }
  }

  @Test func aSourceThatFailsLeavesTheLastDateCounting() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = FailingSource(dates: [clock.currentDate.addingTimeInterval(30)])
    let model = Model(engine: engine, display: .seconds)
    model.follow(source)
    await waitUntil("the source failed") { source.failed.isSet }
    #expect(model.value == .seconds(30), "its date was applied, and the failure changed nothing")
    clock.advance(by: .seconds(5))
    engine._serveDue()
    #expect(model.value == .seconds(25))
  }

  @Test func datesThatCannotBeCountedToAreSkipped() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = Model(engine: engine, display: .seconds)
    model.update(to: clock.currentDate.addingTimeInterval(45))
    #expect(model.value == .seconds(45), "pushed: shown at once")
    for absurd in [Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: 1e18)] {
      model.update(to: absurd)
      #expect(model.value == .seconds(45))
    }
  }

  /// A countdown to a date follows the wall clock, by design: when the device's clock is set forward,
  /// the date comes sooner on the monotonic clock.
  @Test func aDateFollowsTheWallClock() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = Model(engine: engine, display: .seconds)
    model.update(to: clock.currentDate.addingTimeInterval(600))
    clock.jumpWallClock(by: .seconds(120))
    engine.wallClockDidChange()
    engine._serveDue()
    #expect(model.value == .seconds(480))
  }

  /// A snapshot the engine computed before the source's latest change shows the old date: dropped.
  @Test func aDeliveryComputedBeforeTheLatestChangeIsDropped() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let model = Model(engine: engine, display: .seconds)
    let before = clock.now
    clock.advance(by: .seconds(1))
    model.update(to: clock.currentDate.addingTimeInterval(60))
    let stale = CountdownSnapshot(
      value: Duration.seconds(4), remaining: .seconds(4), progress: nil, isPaused: false, isFinished: false,
      instant: before)
    model._receive(stale)
    #expect(model.value == .seconds(60))
    var current = stale
    current.instant = clock.now
    model._receive(current)
    #expect(model.value == .seconds(4), "one computed since is shown")
  }
}
