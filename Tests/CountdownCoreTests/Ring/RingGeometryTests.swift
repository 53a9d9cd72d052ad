import TestSupport
import CountdownCore
import Foundation
import Testing

@Suite struct RingGeometryTests {
  /// Diameter 84, line width 4: radius 40, 252 visible steps at 1× — a multiple of 4, so quarters are exact.
  static func quarterRing(_ progress: Double, clockwise: Bool) -> RingGeometry {
    RingGeometry(progress: progress, diameter: 84, lineWidth: 4, clockwise: clockwise)
  }

  @Test(arguments: [
    // progress, clockwise, sweep, end angle, dot x, dot y
    (0.0, true, 0.0, -0.5, 42.0, 2.0), (0.25, true, 0.5, 0.0, 82, 42), (0.5, true, 1, 0.5, 42, 82),
    (1, true, 2, 1.5, 42, 2), (0, false, 0, -0.5, 42, 2), (0.25, false, 0.5, -1, 2, 42),
    (0.5, false, 1, -1.5, 42, 82), (1, false, 2, -2.5, 42, 2),
  ])
  func anglesAtQuarters(
    progress: Double, clockwise: Bool, sweepOverPi: Double, endOverPi: Double, dotX: Double, dotY: Double
  ) {
    let ring = Self.quarterRing(progress, clockwise: clockwise)
    #expect(ring.visibleSteps == 252)
    #expect(ring.isClockwise == clockwise)
    #expect(ring.center == RingGeometry.Point(x: 42, y: 42))
    #expect(ring.radius == 40)
    #expect(ring.startAngle == -Double.pi / 2)
    #expect(ring.strokeEnd == progress)
    #expect(abs(ring.sweep - sweepOverPi * .pi) < 1e-12)
    #expect(abs(ring.endAngle - endOverPi * .pi) < 1e-12)
    #expect(abs(ring.dotPosition.x - dotX) < 1e-12 && abs(ring.dotPosition.y - dotY) < 1e-12, "\(ring.dotPosition)")
  }

  @Test func dotLiesOnTheCircleAtItsAngle() {
    let seed = SeededGenerator.testSeed()
    var random = SeededGenerator(seed: seed)
    print("RingGeometryTests.dotLiesOnTheCircleAtItsAngle seed: \(seed) (replay with COUNTDOWN_TEST_SEED=\(seed))")
    for _ in 0..<2_000 {
      let ring = RingGeometry(
        progress: Double.random(in: 0...1, using: &random), diameter: Double.random(in: 1...400, using: &random),
        lineWidth: Double.random(in: 0...40, using: &random), scale: Double.random(in: 1...4, using: &random),
        clockwise: Bool.random(using: &random))
      let dx = ring.dotPosition.x - ring.center.x
      let dy = ring.dotPosition.y - ring.center.y
      #expect(abs((dx * dx + dy * dy).squareRoot() - ring.radius) <= 1e-9, "seed \(seed): \(ring)")
      // The dot sits at the end angle: the angle of its offset from the centre, modulo a full turn.
      if ring.radius > 0 {
        let turns = (atan2(dy, dx) - ring.endAngle) / (2 * .pi)
        #expect(abs(turns - turns.rounded()) < 1e-9, "seed \(seed): \(ring)")
      }
    }
  }

  @Test func strokeEndIsProgressAtTheVisibleResolution() {
    let seed = SeededGenerator.testSeed()
    var random = SeededGenerator(seed: seed)
    print(
      "RingGeometryTests.strokeEndIsProgressAtTheVisibleResolution seed: \(seed) (replay with COUNTDOWN_TEST_SEED=\(seed))"
    )
    for _ in 0..<2_000 {
      let progress = Double.random(in: 0...1, using: &random)
      let ring = RingGeometry(
        progress: progress, diameter: Double.random(in: 4...200, using: &random), lineWidth: 2,
        scale: [1, 2, 3].randomElement(using: &random)!)
      let steps = Double(ring.visibleSteps)
      #expect(abs(ring.strokeEnd - progress) <= 1 / steps, "seed \(seed): \(ring)")
      // On the grid of visible steps, at the nearest step unless a 0/1 rule moved it.
      let step = ring.strokeEnd * steps
      #expect(abs(step - step.rounded()) < 1e-9, "seed \(seed): \(ring)")
      if step.rounded() > 1 && step.rounded() < steps - 1 {
        #expect(abs(ring.strokeEnd - progress) <= 0.5 / steps + 1e-12, "seed \(seed): \(ring)")
      }
      #expect(progress == 0 || ring.strokeEnd > 0, "seed \(seed): \(ring)")
      #expect(progress == 1 || ring.strokeEnd < 1, "seed \(seed): \(ring)")
    }
  }

  @Test(arguments: [1, 2, 3])
  func strokeEndKeepsANearlyEmptyRingVisibleAndAStartedRingMoved(scale: Double) {
    let steps = Double(RingGeometry.visibleSteps(diameter: 48, lineWidth: 4, scale: scale))
    #expect(RingGeometry(progress: 0, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 0)
    #expect(RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 1)
    #expect(RingGeometry(progress: 1e-12, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 1 / steps)
    #expect(
      RingGeometry(progress: 1 - 1e-12, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == (steps - 1) / steps)
    // 0.4 of a step would round to 0 but is held at one step; above one step, the nearest step wins.
    #expect(RingGeometry(progress: 0.4 / steps, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 1 / steps)
    #expect(RingGeometry(progress: 2.4 / steps, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 2 / steps)
    #expect(RingGeometry(progress: 2.6 / steps, diameter: 48, lineWidth: 4, scale: scale).strokeEnd == 3 / steps)
  }

  @Test func aRingWithOneVisibleStepIsNotQuantized() {
    let ring = RingGeometry(progress: 0.3, diameter: 0.2, lineWidth: 0.1)
    #expect(ring.visibleSteps == 1)
    #expect(ring.strokeEnd == 0.3)
  }

  @Test func visibleStepsOfA48PointRingAt3x() {
    // 2π · 24 · 3 = 452.4 px of circumference for a hairline; a 4-point stroke's middle is at radius 22.
    #expect(RingGeometry.visibleSteps(diameter: 48, lineWidth: 0, scale: 3) == 453)
    #expect(RingGeometry.visibleSteps(diameter: 48, lineWidth: 4, scale: 3) == 415)
    #expect(RingGeometry.visibleSteps(diameter: 48, lineWidth: 4) == 139)
    #expect(RingGeometry(progress: 0.5, diameter: 48, lineWidth: 4, scale: 3).visibleSteps == 415)
    #expect(RingGeometry.visibleSteps(diameter: 1e12, lineWidth: 1, scale: 3) == RingGeometry.maximumVisibleSteps)
    #expect(RingGeometry.visibleSteps(diameter: 0, lineWidth: 0, scale: 3) == 1)
  }

  static let oddValues: [Double] = [
    .nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, -1, .leastNonzeroMagnitude, 1e-300, 0.5, 1, 48,
    1e300, .greatestFiniteMagnitude,
  ]

  @Test(arguments: oddValues)
  func invalidInputsGiveFiniteOutputs(value: Double) {
    let others: [Double] = [0.5, 48, 4, 3]
    for position in 0..<4 {
      var inputs = others
      inputs[position] = value
      for clockwise in [true, false] {
        let ring = RingGeometry(
          progress: inputs[0], diameter: inputs[1], lineWidth: inputs[2], scale: inputs[3], clockwise: clockwise)
        let outputs = [
          ring.progress, ring.diameter, ring.lineWidth, ring.scale, ring.center.x, ring.center.y, ring.radius,
          ring.startAngle, ring.sweep, ring.endAngle, ring.strokeEnd, ring.dotPosition.x, ring.dotPosition.y,
        ]
        let allFinite = outputs.allSatisfy { $0.isFinite }
        #expect(allFinite, "\(value) as input \(position): \(ring)")
        #expect((0...1).contains(ring.progress) && (0...1).contains(ring.strokeEnd), "\(ring)")
        #expect(ring.radius >= 0 && ring.lineWidth <= ring.diameter && ring.scale > 0, "\(ring)")
        #expect((1...RingGeometry.maximumVisibleSteps).contains(ring.visibleSteps), "\(ring)")
      }
    }
  }

  @Test func invalidInputsClampAsDocumented() {
    for progress in [Double.nan, .infinity, -.infinity, -0.5] {
      #expect(RingGeometry(progress: progress, diameter: 48, lineWidth: 4).progress == 0)
    }
    #expect(RingGeometry(progress: 7, diameter: 48, lineWidth: 4).progress == 1)
    for diameter in [Double.nan, .infinity, -48, 0] {
      let ring = RingGeometry(progress: 1, diameter: diameter, lineWidth: 4)
      #expect(ring.diameter == 0 && ring.lineWidth == 0 && ring.radius == 0 && ring.visibleSteps == 1)
    }
    for lineWidth in [Double.nan, .infinity, -4] {
      #expect(RingGeometry(progress: 1, diameter: 48, lineWidth: lineWidth).lineWidth == 0)
    }
    let tooWide = RingGeometry(progress: 1, diameter: 48, lineWidth: 60)
    #expect(tooWide.lineWidth == 48 && tooWide.radius == 0 && tooWide.center == RingGeometry.Point(x: 24, y: 24))
    for scale in [Double.nan, .infinity, 0, -2] {
      #expect(RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: scale).scale == 1)
    }
  }
}
