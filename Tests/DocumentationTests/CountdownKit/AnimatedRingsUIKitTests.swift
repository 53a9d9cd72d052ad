#if os(Linux)
  import CountdownKit
  import Foundation
  import Testing

  /// Runs the Core Animation examples of the animated rings article against the stand-ins, which add
  /// an implicit animation for every property set outside a transaction that disables actions, as Core
  /// Animation does.
  @MainActor @Suite struct AnimatedRingsUIKitTests {
    /// An 8-second turn's plan on a media clock reading `media` seconds.
    static func turn(media: Double) -> RingAnimationPlan<Int, MediaTime> {
      let now = ContinuousClock.now
      let plan = Countdown(duration: .seconds(8), startingAt: now).ringAnimation(
        phases: circularTimer, ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3), at: now)
      return plan.converted { MediaTime(seconds: media).advanced(by: now.duration(to: $0)) }
    }

    @Test func theStandInAddsImplicitAnimationsAsCoreAnimationDoes() {
      #expect(implicitAnimationKeys(actionsDisabled: false) == ["strokeEnd", "strokeColor"])
      #expect(implicitAnimationKeys(actionsDisabled: true).isEmpty)
    }

    @Test func eachSegmentAnimatesTheArcAndTheDotWithNoImplicitAnimation() {
      let plan = Self.turn(media: 1_000)
      let added = animatedLayers(along: plan)
      // Four animations per segment, and none under a property's own name (an implicit one).
      #expect(added.arcKeys.count == 16 && added.carrierKeys.count == 8 && added.dotKeys.count == 8)
      for key in ["strokeEnd", "strokeColor", "transform", "backgroundColor"] {
        #expect(!(added.arcKeys + added.carrierKeys + added.dotKeys).contains(key))
      }
      #expect(added.strokeEnds.first.map { $0 == (1, 0.875) } == true)
      #expect(added.strokeEnds.last.map { $0 == (0.125, 0) } == true)
      // The dot turns clockwise from 12 o'clock by the stroke end's share of a full turn.
      #expect(added.rotations.count == 8)
      #expect(added.rotations.first.map { abs($0.0 - 2 * .pi) < 1e-12 && abs($0.1 - 1.75 * .pi) < 1e-12 } == true)
      // Each segment begins on the plan's clock, a second after the one before.
      #expect(added.timings.map(\.begin) == (0..<8).map { 1_000 + Double($0) })
      #expect(added.timings.allSatisfy { $0.duration == 1 })
      #expect(added.restingStrokeEnd == 0 && added.restingRotation == 0)
    }

    @Test func aPausedRingRestsWithItsDotWhereTheArcEnds() {
      let clock = ContinuousClock()
      let start = clock.now
      let paused = Countdown(duration: .seconds(8), startingAt: start).paused(at: start + .seconds(2))
      let ring = RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: 3)
      let plan = paused.ringAnimation(phases: circularTimer, ring: ring, at: start + .seconds(3))
        .converted { MediaTime(seconds: 50).advanced(by: start.duration(to: $0)) }
      let added = animatedLayers(along: plan)
      #expect(added.arcKeys.isEmpty && added.carrierKeys.isEmpty && added.dotKeys.isEmpty)
      #expect(added.restingStrokeEnd == 0.75)
      #expect(abs(added.restingRotation - (-0.5 * .pi)) < 1e-12)  // 270° clockwise, read back as −90°
      // The carrier's turn puts the dot where the geometry's dot is.
      let dot = plan.dotPosition(at: plan.instant)
      let centre = ring.center
      let turned = (
        x: centre.x + ring.radius * sin(added.restingRotation), y: centre.y - ring.radius * cos(added.restingRotation)
      )
      #expect(abs(turned.x - dot.x) < 0.3 && abs(turned.y - dot.y) < 0.3)
    }

    @Test func aDisplayLinkFrameDrawsTheDotAndPausesTheLinkAtRest() {
      let plan = Self.turn(media: 200)
      let middle = drawnFrame(of: plan, at: 204)
      let expected = plan.dotPosition(at: MediaTime(seconds: 204))
      #expect(middle.strokeEnd == plan.ring(at: MediaTime(seconds: 204)).strokeEnd)
      #expect(middle.dot.x == expected.x && middle.dot.y == expected.y)
      #expect(!middle.linkPaused && middle.implicitKeys.isEmpty)
      let after = drawnFrame(of: plan, at: 209)
      #expect(after.strokeEnd == 0 && after.linkPaused)
    }
  }
#endif
