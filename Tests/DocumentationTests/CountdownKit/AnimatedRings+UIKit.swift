// swift-format-ignore-file
// The regions below are code of CountdownKit.docc's article on animated rings, byte for byte: keep the
// two in step (.ci/check-doc-blocks). Not in AnimatedRings.swift: a file that imports UIKit must not
// import Testing (its UIKit overlay exists only on Apple platforms); AnimatedRingsUIKitTests.swift runs
// them.
#if os(Linux)
  import CountdownKit
  import UIKit

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  /// Animates a ring along `plan`, a plan on Core Animation's clock: for each segment the arc's stroke end
  /// and colour, and the dot, which `carrier` (a layer the size of the ring, with `dot` at 12 o'clock)
  /// turns round the centre.
  @MainActor func animate(
    arc: CAShapeLayer, carrier: CALayer, dot: CALayer, along plan: RingAnimationPlan<Int, MediaTime>, palette: [UIColor]
  ) {
    // Without this, each value set below starts Core Animation's implicit 0.25 s animation.
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for layer in [arc, carrier, dot] { layer.removeAllAnimations() }
    for (index, segment) in plan.segments.enumerated() {
      let colour = palette[segment.phase].cgColor
      let steps: [(CALayer, String, Any, Any)] = [
        (arc, "strokeEnd", segment.fromStrokeEnd, segment.toStrokeEnd),
        (arc, "strokeColor", colour, colour),
        (carrier, "transform.rotation.z", plan.rotation(strokeEnd: segment.fromStrokeEnd), plan.rotation(strokeEnd: segment.toStrokeEnd)),
        (dot, "backgroundColor", colour, colour),
      ]
      for (layer, keyPath, from, to) in steps {
        let animation = CABasicAnimation(keyPath: keyPath)
        (animation.fromValue, animation.toValue) = (from, to)
        animation.beginTime = layer.convertTime(segment.start.seconds, from: nil)
        animation.duration = segment.duration / .seconds(1)
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        animation.fillMode = .forwards  // holds its end until the next segment, added later, takes over
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "\(keyPath).\(index)")
      }
    }
    // What the layers show once the plan has run out, and while paused.
    arc.strokeEnd = plan.restingStrokeEnd
    arc.strokeColor = palette[plan.restingPhase].cgColor
    carrier.transform = CATransform3DMakeRotation(plan.rotation(strokeEnd: plan.restingStrokeEnd), 0, 0, 1)
    dot.backgroundColor = palette[plan.restingPhase].cgColor
    CATransaction.commit()
  }
  // end docs

  /// A turn's ring in UIKit, animated by Core Animation from each plan the model hands over.
  @MainActor final class TurnRingView: UIView {
    let arc = CAShapeLayer()
    let carrier = CALayer()
    let dot = CALayer()
    static let palette: [UIColor] = [.systemGreen, .systemGreen, .label, .label, .secondaryLabel, .secondaryLabel, .systemRed, .systemRed]
    var model: RingAnimationModel<PhaseDisplay<Int>, ContinuousClock>?

    func start(on engine: CountdownEngine<ContinuousClock>) {
      let (arc, carrier, dot) = (arc, carrier, dot)
      // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
      model = RingAnimationModel(
        engine: engine, countdown: Countdown(duration: .seconds(8), startingAt: engine.now), phases: circularTimer,
        ring: RingGeometry(progress: 1, diameter: 48, lineWidth: 4, scale: traitCollection.displayScale),
        mediaClock: MediaClock(seconds: CACurrentMediaTime)
      ) { plan in
        animate(arc: arc, carrier: carrier, dot: dot, along: plan, palette: TurnRingView.palette)
      }
      // end docs
    }
  }

  // docs: Sources/CountdownKit/CountdownKit.docc/Articles/AnimatedRings.md
  /// Draws the ring of `plan` (on Core Animation's clock) for the frame `link` is about to show: call it
  /// from the link's callback.
  @MainActor func drawFrame(
    _ link: CADisplayLink, plan: RingAnimationPlan<Int, MediaTime>, arc: CAShapeLayer, dot: CALayer, palette: [UIColor]
  ) {
    // The frame appears at `targetTimestamp`, on the clock the plan is on.
    let frame = MediaTime(seconds: link.targetTimestamp)
    let ring = plan.ring(at: frame)
    CATransaction.begin()
    CATransaction.setDisableActions(true)  // no implicit animation: the frames are the animation
    arc.strokeEnd = ring.strokeEnd
    arc.strokeColor = palette[plan.phase(at: frame)].cgColor
    dot.position = CGPoint(x: ring.dotPosition.x, y: ring.dotPosition.y)
    CATransaction.commit()
    // Paused or at rest, nothing moves: stop asking for frames until the model hands over a new plan.
    link.isPaused = plan.nextEvent(after: frame) == nil
  }
  // end docs

  /// What `animate(arc:carrier:dot:along:palette:)` left on fresh layers, for the tests (which cannot
  /// import UIKit themselves).
  struct AnimatedLayers {
    var arcKeys: [String]
    var carrierKeys: [String]
    var dotKeys: [String]
    /// From and to values of the `strokeEnd` and `transform.rotation.z` animations, per segment.
    var strokeEnds: [(Double, Double)]
    var rotations: [(Double, Double)]
    /// Begin times and durations of the `strokeEnd` animations, in seconds on the plan's clock.
    var timings: [(begin: Double, duration: Double)]
    var restingStrokeEnd: Double
    /// The carrier's resting turn, read back from its transform.
    var restingRotation: Double
  }

  /// Animates fresh layers along `plan` with the article's function and reads back what it added.
  @MainActor func animatedLayers(along plan: RingAnimationPlan<Int, MediaTime>) -> AnimatedLayers {
    let (arc, carrier, dot) = (CAShapeLayer(), CALayer(), CALayer())
    animate(arc: arc, carrier: carrier, dot: dot, along: plan, palette: TurnRingView.palette)
    func pairs(_ layer: CALayer, _ keyPath: String) -> [(Double, Double)] {
      (0..<plan.segments.count).compactMap { index in
        guard let animation = layer.animation(forKey: "\(keyPath).\(index)") as? CABasicAnimation,
          let from = animation.fromValue as? Double, let to = animation.toValue as? Double
        else { return nil }
        return (from, to)
      }
    }
    let timings = (0..<plan.segments.count).compactMap { index -> (begin: Double, duration: Double)? in
      arc.animation(forKey: "strokeEnd.\(index)").map { ($0.beginTime, $0.duration) }
    }
    return AnimatedLayers(
      arcKeys: arc.animationKeys() ?? [], carrierKeys: carrier.animationKeys() ?? [], dotKeys: dot.animationKeys() ?? [],
      strokeEnds: pairs(arc, "strokeEnd"), rotations: pairs(carrier, "transform.rotation.z"), timings: timings,
      restingStrokeEnd: Double(arc.strokeEnd),
      restingRotation: Double(atan2(carrier.transform.m12, carrier.transform.m11)))
  }

  /// The keys of the animations a shape layer has after `strokeEnd` and `strokeColor` are set the way
  /// `disabled` says: inside a transaction that disables actions, or not.
  @MainActor func implicitAnimationKeys(actionsDisabled disabled: Bool) -> [String] {
    let layer = CAShapeLayer()
    CATransaction.begin()
    CATransaction.setDisableActions(disabled)
    layer.strokeEnd = 0.5
    layer.strokeColor = UIColor.systemRed.cgColor
    CATransaction.commit()
    return layer.animationKeys() ?? []
  }

  /// Where `drawFrame` put the dot and whether it paused the link, for a frame shown at `seconds` on the
  /// plan's clock.
  @MainActor func drawnFrame(
    of plan: RingAnimationPlan<Int, MediaTime>, at seconds: Double
  ) -> (strokeEnd: Double, dot: CGPoint, linkPaused: Bool, implicitKeys: [String]) {
    let (arc, dot) = (CAShapeLayer(), CALayer())
    let link = CADisplayLink(targetTimestamp: seconds)
    drawFrame(link, plan: plan, arc: arc, dot: dot, palette: TurnRingView.palette)
    return (Double(arc.strokeEnd), dot.position, link.isPaused, (arc.animationKeys() ?? []) + (dot.animationKeys() ?? []))
  }
#endif
