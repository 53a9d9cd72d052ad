#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import CountdownCombine
import CountdownKit
import CountdownTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct CountdownPublisherTests {
  @Test @MainActor func publishesEachChangeThenFinishes() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    var values: [Duration] = []
    var finished = false
    let cancellable = engine.publisher(
      for: Countdown(duration: .milliseconds(2_500), startingAt: clock.now), display: .seconds
    )
    .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0.value) })
    await until { values.count == 1 }
    for step in 1...3 {
      await until { clock.sleeperCount == 1 }
      clock.advance(by: .seconds(1))
      await until { values.count == step + 1 }
    }
    await until { finished }
    #expect(values == [.seconds(3), .seconds(2), .seconds(1), .zero])
    cancellable.cancel()
  }

  @Test @MainActor func cancellingCancelsTheCountdown() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    var values: [Duration] = []
    let cancellable = engine.publisher(for: Countdown(duration: .seconds(60), startingAt: clock.now), display: .seconds)
      .sink { values.append($0.value) }
    await until { values.count == 1 }
    #expect(engine.count == 1)
    cancellable.cancel()
    #expect(engine.count == 0)
    clock.advance(by: .seconds(5))
    for _ in 0..<100 { await Task.yield() }
    #expect(values == [.seconds(60)])
  }

  @Test @MainActor func limitedDemandKeepsOnlyTheNewest() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let subscriber = ManualDemandSubscriber<CountdownSnapshot<Duration, ManualClock.Instant>>()
    engine.publisher(for: Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds).subscribe(
      subscriber)
    subscriber.request(1)
    await until { subscriber.received.count == 1 }
    // Each step passes a boundary and its 100 ms tolerance: remaining 8.9 s, 7.8 s, 6.7 s.
    for _ in 0..<3 {
      await until { clock.sleeperCount == 1 }
      clock.advance(by: .milliseconds(1_100))
      for _ in 0..<200 { await Task.yield() }
    }
    // The driver served the last step and sleeps again: its hop to the main actor is on its way.
    await until { clock.sleeperCount == 1 }
    for _ in 0..<200 { await Task.yield() }
    #expect(subscriber.received.map(\.value) == [.seconds(10)])
    subscriber.request(1)
    await until { subscriber.received.count == 2 }
    #expect(subscriber.received.map(\.value) == [.seconds(10), .seconds(7)])
    subscriber.cancel()
  }

  @Test @MainActor func boardFinishedEventsArriveForRowsOffScreen() async {
    let clock = ManualClock()
    let engine = CountdownEngine(clock: clock, wallClock: clock)
    defer { engine.shutdown() }
    let board = engine.board(of: Int.self, display: .seconds)
    var finished: [Int] = []
    let cancellable = board.finishedPublisher.sink { finished.append($0) }
    for _ in 0..<100 { await Task.yield() }
    board.apply(
      .upserted([BoardRow(id: 1, deadline: .after(.seconds(1))), BoardRow(id: 2, deadline: .after(.seconds(2)))]))
    await until { clock.sleeperCount == 1 }
    clock.advance(by: .seconds(3))
    await until { finished.count == 2 }
    #expect(Set(finished) == [1, 2])
    cancellable.cancel()
  }
}

/// A subscriber that requests demand only when told to; used on the main thread only.
final class ManualDemandSubscriber<Input>: Subscriber {
  typealias Failure = Never
  private(set) var received: [Input] = []
  private var subscription: (any Subscription)?

  func receive(subscription: any Subscription) {
    self.subscription = subscription
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    received.append(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}

  func request(_ demand: Int) {
    subscription?.request(.max(demand))
  }

  func cancel() {
    subscription?.cancel()
  }
}

/// Yields (never sleeps) until `condition` holds; records an issue if it never does.
@MainActor
func until(_ condition: @MainActor () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
  // Bounded by time (30 s), not by a number of yields: a loaded machine may not schedule the engine's
  // driver within any fixed number of them. A yield longer than 100 ms counts as 100 ms: the main actor
  // was busy with other tests' work, not this test's.
  var budget = Duration.seconds(30)
  var last = ContinuousClock.now
  while !condition() {
    guard budget > .zero else {
      Issue.record("Condition never became true", sourceLocation: sourceLocation)
      return
    }
    await Task.yield()
    let now = ContinuousClock.now
    budget -= min(last.duration(to: now), .milliseconds(100))
    last = now
  }
}
