import CountdownCore
import Foundation
import TestSupport
import Testing

/// A ring plan carried onto the host's animation clock (`converted(_:)`, `MediaTime`) and the dot at
/// its moving end (`rotation(strokeEnd:)`, `dotPosition(at:)`).
@Suite struct RingAnimationPlanClockTests {
  static let eightPhases = RingAnimationPlanTests.eightPhases
  static let ring = RingAnimationPlanTests.ring

  @Test func aConvertedPlanIsTheSamePlanAtTheSameDistances() {
    let start = TestInstant.seconds(40)
    let turn = Countdown(duration: .seconds(8), startingAt: start)
    let plan = turn.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start + .seconds(1.5))
    let media = MediaTime(seconds: 7_000.25)
    let onMedia = plan.converted { media.advanced(by: start.duration(to: $0)) }
    #expect(onMedia.instant == MediaTime(seconds: 7_001.75))
    #expect(onMedia.segments.count == plan.segments.count)
    for (carried, segment) in zip(onMedia.segments, plan.segments) {
      #expect(carried.start == media.advanced(by: start.duration(to: segment.start)))
      #expect(carried.duration == segment.duration && carried.phase == segment.phase)
      #expect(carried.fromStrokeEnd == segment.fromStrokeEnd && carried.toStrokeEnd == segment.toStrokeEnd)
    }
    #expect(onMedia.countdown.end == MediaTime(seconds: 7_008.25) && onMedia.countdown.total == .seconds(8))
    // Sampled at the same distance from the start on both clocks, the ring is the same.
    var generator = SeededGenerator(seed: SeededGenerator.testSeed())
    for _ in 0..<1_000 {
      let offset = Duration.seconds(Double.random(in: 0...10, using: &generator))
      #expect(onMedia.strokeEnd(at: media + offset) == plan.strokeEnd(at: start + offset))
      #expect(onMedia.phase(at: media + offset) == plan.phase(at: start + offset))
      #expect(onMedia.dotPosition(at: media + offset) == plan.dotPosition(at: start + offset))
    }
    // A paused countdown keeps its frozen time; the instant it was paused at moves with the clock.
    let paused = turn.paused(at: start + .seconds(3))
    let pausedPlan = paused.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start + .seconds(4))
      .converted { media.advanced(by: start.duration(to: $0)) }
    #expect(pausedPlan.countdown.isPaused && pausedPlan.countdown.remaining(at: media) == .seconds(5))
    #expect(pausedPlan.segments.isEmpty && pausedPlan.restingStrokeEnd == 5.0 / 8)
  }

  @Test func theDotSitsOnTheArcsEnd() {
    let start = TestInstant.zero
    let turn = Countdown(duration: .seconds(8), startingAt: start)
    for clockwise in [true, false] {
      let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3, clockwise: clockwise)
      let plan = turn.ringAnimation(phases: Self.eightPhases, ring: ring, at: start)
      for tenth in 0...90 {
        let instant = start + .milliseconds(100 * tenth)
        let geometry = plan.ring(at: instant)
        #expect(plan.dotPosition(at: instant) == geometry.dotPosition)
        // The rotation of a layer carrying the dot from 12 o'clock: the arc's end angle, unrounded.
        let strokeEnd = plan.strokeEnd(at: instant)
        let turned = plan.rotation(strokeEnd: strokeEnd)
        #expect(abs(turned - (clockwise ? 1 : -1) * 2 * .pi * strokeEnd) < 1e-12)
        #expect(abs(turned - (geometry.endAngle - geometry.startAngle)) <= 2 * .pi / Double(ring.visibleSteps) + 1e-12)
      }
    }
    let plan = turn.ringAnimation(phases: Self.eightPhases, ring: Self.ring, at: start)
    #expect(plan.rotation(strokeEnd: 2) == 2 * .pi && plan.rotation(strokeEnd: -1) == 0)
    #expect(plan.rotation(strokeEnd: .nan) == 0)
  }

  @Test func mediaTimeReadsSecondsAndNeverTraps() {
    #expect(MediaTime(seconds: 1_234.5).offset == .milliseconds(1_234_500))
    #expect(MediaTime(seconds: 1_234.5).seconds == 1_234.5)
    #expect(MediaTime(seconds: .nan).offset == .zero && MediaTime(seconds: .infinity).offset == .zero)
    #expect(MediaTime(seconds: 1e300).offset == .seconds(1e15))
    #expect(MediaTime(seconds: 2) - .seconds(1) < MediaTime(seconds: 1.5))
  }
}
