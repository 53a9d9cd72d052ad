// swift-format-ignore-file
// The regions below are the code of CountdownKit.docc's article on animated rings, byte for byte: keep
// the two in step (.ci/check-doc-blocks). The tests run the plan's example and check its comments.
import CountdownKit
import CountdownTesting
import Foundation
import Testing

// docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
/// The circular timer of a card game: phase 0 for the first second of an 8-second turn, then one
/// more each second, each phase its own colour.
let circularTimer = PhaseDisplay(initial: 0, phases: (1...7).map { .init(startsAt: .seconds(8 - $0), value: $0) })
// end docs

@Suite struct AnimatedRingsExamples {
  @Test func aTurnIsEightSegments() {
    let clock = ContinuousClock()
    // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
    let now = clock.now
    let turn = Countdown(duration: .seconds(8), startingAt: now)
    let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
    let plan = turn.ringAnimation(phases: circularTimer, ring: ring, at: now)
    for segment in plan.segments {
      print(now.duration(to: segment.start), segment.duration, segment.fromStrokeEnd, segment.toStrokeEnd, segment.phase)
    }
    // 0.0 seconds 1.0 seconds 1.0 0.875 0
    // 1.0 seconds 1.0 seconds 0.875 0.75 1
    // …
    // 7.0 seconds 1.0 seconds 0.125 0.0 7
    // end docs
    let printed = plan.segments.map {
      "\(now.duration(to: $0.start)) \($0.duration) \($0.fromStrokeEnd) \($0.toStrokeEnd) \($0.phase)"
    }
    #expect(printed.count == 8)
    #expect(printed.first == "0.0 seconds 1.0 seconds 1.0 0.875 0")
    #expect(printed.dropFirst().first == "1.0 seconds 1.0 seconds 0.875 0.75 1")
    #expect(printed.last == "7.0 seconds 1.0 seconds 0.125 0.0 7")
  }

  @MainActor @Test func theModelHandsOverOnePlanPerTurn() {
    let clock = ManualClock()
    let engine = CountdownEngine.manuallyDriven(by: clock)
    defer { engine.shutdown() }
    var plans = 0
    let model = RingAnimationModel(
      engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: clock.now), phases: circularTimer,
      ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3), mediaClock: .manual(clock)
    ) { _ in plans += 1 }
    for _ in 0..<50 {
      clock.advance(by: .milliseconds(100))
      engine.serveDue()
    }
    #expect(plans == 1 && model.plan.segments.count == 8)
    model.handle.pause()
    engine.serveDue()
    #expect(plans == 2 && model.plan.segments.isEmpty && model.plan.restingPhase == 5 && model.isPaused)
  }
}

#if os(Linux)
  import SwiftUI

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  struct SegmentedTurnRing: View {
    let model: RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>
    @State private var strokeEnd = 1.0
    @State private var phase = 0

    var body: some View {
      Circle()
        .inset(by: 2)
        .trim(from: 0, to: strokeEnd)
        .stroke(RingTimer.palette[phase], style: StrokeStyle(lineWidth: 4, lineCap: .round))
        .rotationEffect(.degrees(-90))
        .frame(width: 48, height: 48)
        .task(id: model.mediaPlan) { @MainActor in await play(model.mediaPlan) }
    }

    /// Plays `plan` from now on: each segment one linear animation, in its colour from its start.
    private func play(_ plan: RingAnimationPlan<Int, MediaTime>) async {
      for segment in plan.segments where segment.end > model.mediaClock.now {
        try? await Task.sleep(for: model.mediaClock.now.duration(to: segment.start))
        if Task.isCancelled { return }
        let now = model.mediaClock.now
        phase = segment.phase
        strokeEnd = segment.strokeEnd(at: now)
        withAnimation(.linear(duration: now.duration(to: segment.end) / .seconds(1))) {
          strokeEnd = segment.toStrokeEnd
        }
      }
      if let last = plan.segments.last { try? await Task.sleep(for: model.mediaClock.now.duration(to: last.end)) }
      if Task.isCancelled { return }
      phase = plan.restingPhase
      strokeEnd = plan.restingStrokeEnd
    }
  }
  // end docs
#endif
