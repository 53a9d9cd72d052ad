import CountdownKit
import CountdownTesting
import Foundation
import Testing

/// A subscriber added on the main actor into a sink slot its display's table never had is installed at
/// once instead of through the mailbox. These tests mix that path with the queued one (slots reused
/// after a cancel, adds from other threads, adds from inside a delivery) and check that every closure
/// gets its own countdown's values and nothing else.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct MainActorInstallTests {
  @Test func aCountdownAddedInsideAnotherOnesCallbackGetsItsOwnValues() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    var outer: [Duration] = []
    var inner: [Duration] = []
    engine.add(Countdown(duration: .seconds(10), startingAt: clock.now), display: .seconds) { snapshot in
      outer.append(snapshot.value)
      guard outer.count == 1 else { return }
      // Installed in the middle of the delivery that called us.
      engine.add(Countdown(duration: .seconds(5), startingAt: clock.now), display: .seconds) { inner.append($0.value) }
    }
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(outer == [.seconds(10), .seconds(9)])
    #expect(inner == [.seconds(5), .seconds(4)])
  }

  @Test func slotsReusedAfterACancelGetOnlyTheirNewSubscribersValues() {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    // Subscriber `k` counts down `k + 1` minutes: a value tells whose it is.
    var received: [Int: [Duration]] = [:]
    func add(_ k: Int) -> CountdownHandle<ManualClock> {
      engine.add(Countdown(duration: .seconds(60 * (k + 1)), startingAt: clock.now), display: .seconds) {
        received[k, default: []].append($0.value)
      }
    }
    var handles = (0..<100).map(add)
    clock.advance(by: .seconds(1))
    // The first values and the next ones are still on their way when half are cancelled and replaced:
    // the replacements take the freed slots, through the mailbox.
    for k in stride(from: 0, to: 100, by: 2) { handles[k].cancel() }
    for k in stride(from: 0, to: 100, by: 2) { handles[k] = add(100 + k) }
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(received.count == 100, "50 originals and 50 replacements")
    for k in 0..<200 where k < 100 || k % 2 == 0 {
      let isOriginal = k < 100
      if isOriginal, k % 2 == 0 {
        #expect(received[k] == nil, "cancelled before anything reached the main actor: \(k)")
        continue
      }
      // Originals were added 2 s ago, replacements 1 s ago: each shows only its own countdown's
      // values, counting down, ending on the current one.
      let total = Duration.seconds(60 * (k + 1))
      let now = isOriginal ? total - .seconds(2) : total - .seconds(1)
      let values = received[k] ?? []
      #expect(values.last == now, "subscriber \(k): \(values)")
      #expect(values.allSatisfy { $0 <= total && $0 >= now }, "subscriber \(k): \(values)")
      #expect(values == values.sorted(by: >) && Set(values).count == values.count, "subscriber \(k): \(values)")
    }
  }

  @Test func addsOnTheMainActorAndOnAnotherThreadMix() async {
    let (engine, clock) = makeManualEngine()
    defer { engine.shutdown() }
    let start = clock.now
    let received = Box()
    let elsewhere = Task.detached {
      for k in 0..<1_000 {
        engine.add(Countdown(duration: .seconds(2 * k + 1), startingAt: start), display: .seconds) { snapshot in
          received.values[2 * k + 1, default: []].append(snapshot.value)
        }
      }
    }
    for k in 0..<1_000 {
      engine.add(Countdown(duration: .seconds(2 * k + 2), startingAt: start), display: .seconds) { snapshot in
        received.values[2 * k + 2, default: []].append(snapshot.value)
      }
    }
    await elsewhere.value
    engine._serveDue()
    clock.advance(by: .seconds(1))
    engine._serveDue()
    #expect(received.values.count == 2_000)
    for (seconds, values) in received.values {
      #expect(values == [.seconds(seconds), .seconds(seconds - 1)], "the countdown of \(seconds) s")
    }
  }

  @MainActor
  final class Box: Sendable {
    var values: [Int: [Duration]] = [:]
  }
}
