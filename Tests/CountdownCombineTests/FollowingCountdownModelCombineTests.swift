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

/// `FollowingCountdownModel.follow(_:)` with a Combine publisher (OpenCombine on Linux): the model owns
/// the subscription, counts to the newest date, reopens after it finished, and takes values published on
/// any thread to the main actor.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct FollowingCountdownModelCombineTests {
  typealias Model = FollowingCountdownModel<RoundedDisplay, ManualClock>

  @Test func followsAPublisherAndCountsAgainAfterItFinished() async {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    let dates = PassthroughSubject<Date?, Never>()
    var finishes = 0
    let model = Model(engine: engine, display: .seconds) { finishes += 1 }
    model.follow(dates)

    dates.send(clock.currentDate.addingTimeInterval(3))
    await until { model.value == .seconds(3) }
    clock.advance(by: .seconds(4))
    engine.serveDue()
    #expect(model.isFinished)
    #expect(finishes == 1)

    dates.send(clock.currentDate.addingTimeInterval(20))
    await until { model.value == .seconds(20) }
    clock.advance(by: .seconds(5))
    engine.serveDue()
    #expect(model.value == .seconds(15))

    dates.send(nil)
    await until { model.snapshot == nil }
    #expect(engine.count == 0)
  }

  @Test func valuesPublishedOnAnotherThreadReachTheMainActorNewestLast() async {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    let dates = PassthroughSubject<Date, Never>()
    let model = Model(engine: engine, display: .seconds)
    model.follow(dates)
    let start = clock.currentDate
    // Published from a thread that is not the main actor, one after the other. A subject may be sent to
    // from any thread; Swift cannot know it, so the test hands it over unchecked.
    nonisolated(unsafe) let sender = dates
    await Task.detached {
      for seconds in 1...50 { sender.send(start.addingTimeInterval(Double(seconds))) }
    }.value
    await until { model.value == .seconds(50) }
  }

  @Test func theModelOwnsItsSubscription() async {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    var cancelled = 0
    let dates = PassthroughSubject<StoredCountdown?, Never>()
    let publisher = dates.handleEvents(receiveCancel: { cancelled += 1 })
    weak var released: Model?
    do {
      let model = Model(engine: engine, display: .seconds)
      released = model
      model.follow(publisher)
      dates.send(try? StoredCountdown(end: clock.currentDate.addingTimeInterval(60)))
      await until { model.value == .seconds(60) }
      #expect(cancelled == 0)
      model.stopFollowing()
      #expect(cancelled == 1, "stopping lets go of the subscription")
      model.follow(publisher)
    }
    #expect(released == nil)
    #expect(cancelled == 2, "the model's subscription went with it")
    #expect(engine.count == 0, "and so did its countdown")
  }
}
