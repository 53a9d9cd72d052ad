import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// `snapshots(following:)`: a countdown to a date that lives somewhere else (a database row, a server
/// stream) and may move at any moment.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct FollowingTests {
  typealias Snapshot = CountdownSnapshot<Duration, ManualClock.Instant>

  /// A source of end dates fed by hand, that reports when its reader stopped reading.
  final class Source: Sendable {
    let dates: AsyncStream<Date>
    let continuation: AsyncStream<Date>.Continuation
    private let terminated = Lock(false)

    init() {
      (dates, continuation) = AsyncStream.makeStream(of: Date.self)
      continuation.onTermination = { [weak self] _ in self?.terminated.withLock { $0 = true } }
    }

    var isTerminated: Bool { terminated.withLock { $0 } }
  }

  @Test func followsTheLatestDateAsTheSourceChangesMidCount() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let start = clock.currentDate
    var snapshots = engine.snapshots(following: source.dates, display: .seconds).makeAsyncIterator()

    source.continuation.yield(start.addingTimeInterval(60))
    #expect(await snapshots.next()?.value == .seconds(60))
    clock.advance(by: .seconds(10))
    engine._serveDue()
    #expect(await snapshots.next()?.value == .seconds(50))

    // The date moves later, then earlier: each new date takes effect at once.
    source.continuation.yield(start.addingTimeInterval(300))
    #expect(await snapshots.next()?.value == .seconds(290))
    source.continuation.yield(start.addingTimeInterval(15))
    let moved = await snapshots.next()
    #expect(moved?.value == .seconds(5))
    #expect(moved?.remaining == .seconds(5))
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(await snapshots.next()?.value == .seconds(4))
  }

  @Test func aCountdownThatReachedZeroCountsAgainWhenTheDateMovesLater() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let start = clock.currentDate
    var snapshots = engine.snapshots(following: source.dates, display: .seconds).makeAsyncIterator()

    source.continuation.yield(start.addingTimeInterval(2))
    #expect(await snapshots.next()?.value == .seconds(2))
    clock.advance(by: .seconds(3))
    engine._serveDue()
    #expect(await snapshots.next()?.isFinished == true)
    // The seller extends the window after it closed: the same sequence counts again.
    source.continuation.yield(start.addingTimeInterval(63))
    let reopened = await snapshots.next()
    #expect(reopened?.value == .seconds(60))
    #expect(reopened?.isFinished == false)

    // Once the source is done, the sequence ends when the countdown has finished.
    source.continuation.finish()
    clock.advance(by: .seconds(60))
    engine._serveDue()
    #expect(await snapshots.next()?.isFinished == true)
    #expect(await snapshots.next() == nil)
    await waitUntil("the countdown is gone") { engine.count == 0 }
  }

  @Test func invalidDatesAreSkipped() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let start = clock.currentDate
    var snapshots = engine.snapshots(following: source.dates, display: .seconds).makeAsyncIterator()

    let invalid = [
      Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .infinity),
      Date(timeIntervalSinceReferenceDate: 1e300), Date(timeIntervalSinceReferenceDate: -1e300),
    ]
    // Before the first valid date: nothing starts.
    for date in invalid { source.continuation.yield(date) }
    source.continuation.yield(start.addingTimeInterval(30))
    #expect(await snapshots.next()?.value == .seconds(30))
    #expect(engine.count == 1)
    // After it: the countdown goes on to the last valid date.
    for date in invalid { source.continuation.yield(date) }
    source.continuation.yield(start.addingTimeInterval(40))
    #expect(await snapshots.next()?.value == .seconds(40))
    #expect(engine.count == 1)
  }

  @Test func whenTheSourceEndsTheCountdownGoesOnToTheLastDate() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let start = clock.currentDate
    var snapshots = engine.snapshots(following: source.dates, display: .seconds).makeAsyncIterator()
    source.continuation.yield(start.addingTimeInterval(3))
    #expect(await snapshots.next()?.value == .seconds(3))
    source.continuation.finish()
    await waitUntil("the source was read to its end") { source.isTerminated }
    for left in [2, 1] {
      clock.advance(by: .seconds(1))
      engine._serveDue()
      #expect(await snapshots.next()?.value == .seconds(Int64(left)))
    }
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(await snapshots.next()?.isFinished == true)
    #expect(await snapshots.next() == nil)
  }

  @Test func aSourceThatFailsLeavesTheCountdownGoingToTheLastDate() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let (dates, continuation) = AsyncThrowingStream.makeStream(of: Date.self)
    var snapshots = engine.snapshots(following: dates, display: .seconds).makeAsyncIterator()
    continuation.yield(clock.currentDate.addingTimeInterval(10))
    #expect(await snapshots.next()?.value == .seconds(10))
    continuation.finish(throwing: CancellationError())
    clock.advance(by: .seconds(4))
    engine._serveDue()
    #expect(await snapshots.next()?.value == .seconds(6))
  }

  @Test func aSourceThatEndsWithoutAValidDateEndsTheSequence() async {
    let (engine, _) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    var snapshots = engine.snapshots(following: source.dates, display: .seconds).makeAsyncIterator()
    source.continuation.yield(Date(timeIntervalSinceReferenceDate: .nan))
    source.continuation.finish()
    #expect(await snapshots.next() == nil)
    #expect(engine.count == 0)
  }

  @Test func cancellingTheConsumerCancelsTheCountdownAndStopsReadingTheSource() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let stream = engine.snapshots(following: source.dates, display: .seconds)
    let firstArrived = AsyncStream.makeStream(of: Void.self)
    let consumer = Task {
      var first = true
      for await _ in stream where first {
        first = false
        firstArrived.continuation.yield()
      }
    }
    source.continuation.yield(clock.currentDate.addingTimeInterval(60))
    var arrivals = firstArrived.stream.makeAsyncIterator()
    await arrivals.next()
    #expect(engine.count == 1)

    consumer.cancel()
    await waitUntil("the countdown is cancelled") { engine.count == 0 }
    await waitUntil("the source is no longer read") { source.isTerminated }
  }

  @Test func cancellingTheConsumerBeforeTheFirstDateStartsNothing() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let source = Source()
    let stream = engine.snapshots(following: source.dates, display: .seconds)
    let consumer = Task {
      for await _ in stream {}
    }
    consumer.cancel()
    await consumer.value
    await waitUntil("the source is no longer read") { source.isTerminated }
    source.continuation.yield(clock.currentDate.addingTimeInterval(60))
    #expect(engine.count == 0)
  }
}
